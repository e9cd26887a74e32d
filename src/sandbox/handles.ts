/** Handle normalisation lives in src/contract (the CLI keys its purchase memory by the same rule). */
export { normalizeHandle } from '../contract/handles.js';
