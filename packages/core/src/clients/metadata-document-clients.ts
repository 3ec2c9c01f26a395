// Filled in by issue 32 (see docs/rules.md CM-* / DR-*).
export {};
