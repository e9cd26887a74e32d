// The store's fault matrix (test/e2e/fault-matrix.ts), one part of it: the parts run side by side.
import { FAULT_MATRIX_PARTS, faultMatrix } from './fault-matrix.js';

faultMatrix(FAULT_MATRIX_PARTS.postgresEven);
