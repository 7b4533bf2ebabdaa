/** The stream's installer seam; the types live with the installers (install/seam.ts), see there. */
export type { InstallLanguageServer, InstallOutcome, InstallRequest } from '../install/seam.js';
