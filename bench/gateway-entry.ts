// Starts the gateway exactly as `modelgate serve` does (same CLI code, same configuration from the environment),
// under a command line of its own: the shared machine's other users stop their gateways by matching
// "cli.js serve", and a benchmark run must not lose its gateway to that.
import { runCli } from '../src/cli.js';

// Arguments after the script go to serve (`--workers N` in bench/scale-compare.ts; cluster workers get the same).
runCli(['serve', ...process.argv.slice(2)]).then((code) => {
  process.exitCode = code;
});
