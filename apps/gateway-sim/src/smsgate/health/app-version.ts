/**
 * The app release the stand-in follows (v1.68.0), and its release id as the app's release build
 * computes it: days from 2022-06-15 to the build (here the release commit, 2026-07-14).
 */
export const APP_VERSION = { version: '1.68.0', releaseId: 1490 } as const;
