export { HttpClient, MAX_SILENT_WAIT_S } from './client.js';
export type { HttpClientOptions, HttpResponse, Method, RequestOptions } from './client.js';
export { createDispatcher } from './dispatcher.js';
export { apiPath, buildUrl, DEFAULT_BASE_URL, parseBaseUrl, pathSegment } from './url.js';
export type { Query } from './url.js';
