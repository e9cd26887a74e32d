// One module imported statically, so the bundle loads it as one chunk behind one `import()` (undici.ts), not as a
// chain of small chunks each waiting for the last. The proxy agent stays separate: only a proxy loads it.
import connect from 'undici/lib/api/api-connect.js';
import request from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';
import util from 'undici/lib/core/util.js';

// As undici's index does, minus the calls nothing here makes; `connect` opens the proxy agents' tunnels.
Object.assign(DispatcherClass.prototype, { request, connect });

export { Agent, DispatcherClass as Dispatcher, request };
export const parseURL = util.parseURL;
