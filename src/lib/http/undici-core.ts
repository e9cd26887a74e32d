// One module imported statically, so the bundle loads it as one chunk behind one `import()` (undici.ts), not as a
// chain of small chunks each waiting for the last. The proxy agent stays separate: only a proxy loads it.
import connect from 'undici/lib/api/api-connect.js';
import request from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';
import util from 'undici/lib/core/util.js';

// undici parses HTTP with a WebAssembly build of llhttp, compiled on the first connection. V8 compiles it at
// once with its baseline compiler (Liftoff), then again, optimised, on a background thread, and a process
// cannot exit until that job ends: it added ~130 ms to every command that made a request (README,
// Performance). The baseline code parses a 1 GB download at full speed. Set here, not in the launcher, so a
// command that never loads undici does not load node:v8 either.
process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');

// As undici's index does, minus the calls nothing here makes; `connect` opens the proxy agents' tunnels.
Object.assign(DispatcherClass.prototype, { request, connect });

export { Agent, DispatcherClass as Dispatcher, request };
export const parseURL = util.parseURL;
