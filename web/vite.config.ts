import { defineConfig } from 'vitest/config';

// The build goes into the server's assets (committed); two builds of the same source are byte
// for byte the same (scripts/check-build.sh relies on it).
export default defineConfig({
  base: '/',
  build: {
    outDir: '../crates/server/assets',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2020',
    cssCodeSplit: false,
    assetsInlineLimit: 100000,
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Content hashes only: the server caches /assets/* forever, and the same source
        // always gives the same names.
        entryFileNames: 'assets/app-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  test: { include: ['src/**/*.test.ts'], setupFiles: ['src/rules/test-setup.ts'] },
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:18080', ws: true },
    },
  },
});
