import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const source = (file: string) => fileURLToPath(new URL(`src/${file}`, import.meta.url));

/** The app's entry: its static imports are the entry chunk. */
const ENTRY = source('main.tsx');
/** The login page: what it imports besides the entry, every page needs as well. */
const LOGIN = [source('features/auth/components/login-page.tsx')];
/**
 * What the first screens after the login always load: the shell, the device list and a device's
 * status page, and the preload of their data (which the entry imports lazily).
 */
const FIRST_SCREENS = [
  source('app/signed-in-app.tsx'),
  source('app/routes/devices-routes.tsx'),
  source('app/routes/device-list-route.tsx'),
  source('app/routes/device-pages.tsx'),
  source('features/devices/preload.ts'),
];

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

/** Every module `roots` import statically (not through `import()`), the roots included. */
function staticallyReachable(graph: ModuleGraph, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * Fewer, larger chunks for what every visit loads (docs/decisions/035-page-load.md):
 * by default every module shared by two lazy pages becomes a chunk of its own — about 80 script
 * files before the device list could ask for its devices. Now what the entry imports is one chunk
 * (`app`), the login page's code with what it imports besides another (`start`), the shell, list
 * and status page with the rest of what they import a third (`signed-in`), the texts of the later
 * areas one per language (`texts-de`); the later pages (charts, map, settings, users …) stay split.
 */
function firstScreenChunk() {
  let groups: { entry: Set<string>; start: Set<string>; signedIn: Set<string> } | null = null;
  return (id: string, graph: ModuleGraph): string | null => {
    if (!groups) {
      const entry = staticallyReachable(graph, [ENTRY]);
      const start = new Set([...staticallyReachable(graph, LOGIN)].filter((m) => !entry.has(m)));
      const signedIn = new Set(
        [...staticallyReachable(graph, FIRST_SCREENS)].filter((m) => !entry.has(m) && !start.has(m)),
      );
      groups = { entry, start, signedIn };
    }
    // The entry's own imports: left alone, those that lazy pages share became a dozen small chunks.
    if (groups.entry.has(id) && id !== ENTRY) return 'app';
    if (groups.start.has(id)) return 'start';
    // The texts of the later areas, one chunk per language (i18n.ts loads them all at once).
    const texts = /\/src\/locales\/([^/]+)\/[^/]+\.json$/.exec(id);
    if (texts) return `texts-${texts[1]}`;
    if (groups.signedIn.has(id)) return 'signed-in';
    return null;
  };
}

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A group takes only the modules named, not everything they import (the entry keeps its own).
          includeDependenciesRecursively: false,
          groups: [{ name: firstScreenChunk(), debugName: 'first screens' }],
        },
      },
    },
  },
});
