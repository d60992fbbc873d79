import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress';

/** The dev server proxies the API and the session socket to a server on 18083 (see apps/web/src/README.md); BWC_API_TARGET overrides it. */
const API_TARGET = process.env.BWC_API_TARGET || 'http://127.0.0.1:18083';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5174,
    strictPort: true,
    proxy: {
      '/rest': { target: API_TARGET, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
      '/live': { target: API_TARGET, ws: true, changeOrigin: true },
      // signed evidence files (thumbnails, play, download)
      '/media': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000 },
});
