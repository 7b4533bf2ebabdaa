export declare const inCi: boolean;
/**
 * Whether a suite's prerequisite is here. Locally a missing prerequisite skips the suite with a
 * reason; in CI it fails, because CI installed everything and a skip there would hide a defect.
 */
export declare function prerequisite(present: boolean, what: string): boolean;
export declare const chromiumPath = '/usr/bin/chromium';
export declare const hasChromium: () => boolean;
