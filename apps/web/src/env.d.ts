/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** True only in the test build (`vite build --mode test` -> apps/web/dist-test): window test hooks. */
  readonly KANDEV_TEST_HOOKS?: boolean;
}
