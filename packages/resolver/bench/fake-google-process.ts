/**
 * The fake Google in a process of its own, for benchmarks that measure the resolver's throughput:
 * in the resolver's own process the fake's page generation and HTTP serving share its event loop
 * and would be counted as the resolver's. Prints `{"url": …}` once listening; exits with its parent.
 */
import { startFakeGoogle } from '@placeport/testkit';

const delayMs = Number(process.argv[2] ?? '100');
const google = await startFakeGoogle({ delayMs });
process.stdout.write(`${JSON.stringify({ url: google.url })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void google.close().then(() => process.exit(0)));
