/**
 * Whether this run is the lane that exercises real outside components (a live server process, a generated client,
 * and the like; Chromium excepted): the embedded-PostgreSQL lane. CI's second lane sets TEST_DATABASE_URL (the
 * machine's own PostgreSQL) and skips them there, so each runs once per CI run.
 */
export const outsideComponentsLane = !process.env.TEST_DATABASE_URL;
