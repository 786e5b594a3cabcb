/**
 * A clock the tests move by hand, for the rate limits' windows. It starts at the beginning of a second:
 * by default one picked at random years from now, so that runs sharing a Redis never share a window.
 */
export function manualClock(start = (2_000_000_000 + Math.floor(Math.random() * 1_000_000_000)) * 1000) {
  let now = start
  return { now: () => now, set: (ms: number) => (now = ms), advance: (ms: number) => (now += ms) }
}
