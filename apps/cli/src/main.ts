// Latchkey admin CLI: `node apps/cli/src/main.ts <command>`, or `npm run --silent cli -- <command>`.
// One JSON document on stdout; on failure a one-line message on stderr and a non-zero exit
// (2 for usage errors, 1 for everything else), never a stack trace.
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
