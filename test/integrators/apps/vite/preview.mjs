// Serves the app's `vite build` output with Vite's own preview server, as `vite preview` does, on the host
// and port given (`--host H --port 0`), and prints its URL. Started by the matrix through the harness.
import { preview } from 'vite';

const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
const server = await preview({
  logLevel: 'silent',
  preview: { host: arg('--host'), port: Number(arg('--port')), strictPort: true, open: false },
});
console.log(`preview ${server.resolvedUrls?.local[0] ?? ''}`);
