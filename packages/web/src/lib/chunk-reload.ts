/**
 * After a redeploy an open tab still runs the old build: its next lazily loaded chunk is gone from
 * the server and the dynamic import fails. The page then reloads once by itself,
 * which loads the new build; a second failure soon after shows the fallback instead of reloading
 * again, so a chunk that is really missing never makes the page loop.
 */

const RELOADED_AT_KEY = 'tankportal.chunkReloadAt';
/** A failure this soon after the last reload is the reloaded page failing again. */
const GUARD_MS = 30_000;

/** What browsers and Vite say when a module or its preload cannot be fetched. */
const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

interface ReloadEnvironment {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: number;
}

/**
 * Whether the page may reload for a chunk error now; if so, notes the time in the tab's session
 * storage. Without a usable storage no reload is made (it could not be guarded).
 */
export function claimChunkReload({ storage, now }: ReloadEnvironment): boolean {
  try {
    const last = Number(storage.getItem(RELOADED_AT_KEY));
    if (last && now - last >= 0 && now - last < GUARD_MS) return false;
    storage.setItem(RELOADED_AT_KEY, String(now));
    return true;
  } catch {
    return false;
  }
}

/** Reloads the page for a chunk error when the guard allows it; false: show the fallback. */
export function reloadForChunkError(): boolean {
  if (!claimChunkReload({ storage: window.sessionStorage, now: Date.now() })) return false;
  window.location.reload();
  return true;
}

/**
 * Vite reports a failed preload of a chunk's dependencies before the import itself fails: reload
 * there already. When the guard refuses, the error goes on to the route's error element.
 */
export function installChunkReload() {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunkError()) event.preventDefault();
  });
}
