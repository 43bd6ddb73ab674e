import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `vite` to develop (run server.ts beside it for the route mode), `vite build` for dist/.
export default defineConfig({ plugins: [react()] });
