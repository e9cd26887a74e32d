/**
 * The parts of undici every request needs, imported statically in one module so the bundle loads them
 * as one chunk behind one `import()` (undici.ts), not as a chain of small chunks each waiting for the
 * last: the request and connect API, the Dispatcher class they go on, the keep-alive Agent and the URL
 * parser. The proxy agent stays a separate import: only a configured proxy loads it.
 */
import connect from 'undici/lib/api/api-connect.js';
import request from 'undici/lib/api/api-request.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';
import util from 'undici/lib/core/util.js';

// As undici's index does, minus the stream, pipeline and upgrade calls nothing here makes: `request` on
// every dispatcher, and `connect`, with which the proxy agents open their tunnels.
Object.assign(DispatcherClass.prototype, { request, connect });

export { Agent, request };
export const parseURL = util.parseURL;
