// Each target runs in its own process so the load generator does not share its event loop.
// It prints one line with its port; the parent reads it and starts the load.
export function announce(port: number): void {
  // An orderly exit on the parent's SIGTERM, so that `--cpu-prof` (bench/profile.ts) writes its profile.
  process.once('SIGTERM', () => process.exit(0));
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}
