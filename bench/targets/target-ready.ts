// Each target runs in its own process so the load generator does not share its event loop.
// It prints one line with its port; the parent reads it and starts the load.
export function announce(port: number): void {
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}
