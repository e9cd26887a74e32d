import type { ConfigStore } from '../config.js';
import type { SettingChange } from '../config-change.js';
import { shownValue } from '../config-change.js';
import { clearLogin, LOGIN_KEY } from './token-store.js';

/** The profile key of a stored API key. */
const API_KEY = 'api-key';

/** What `logout` forgets: the login (tokens) and the stored API key. */
export interface ForgottenCredentials {
  login: boolean;
  apiKey: boolean;
}

/**
 * The changes `logout` would make, for `--dry-run`: one unset per stored credential. The client
 * registration (a public id, no secret) is kept so the next login does not register again.
 */
export function logoutChanges(store: ConfigStore): SettingChange[] {
  const changes: SettingChange[] = [];
  if (store.get(LOGIN_KEY) !== undefined) changes.push({ action: 'unset', key: 'login', value: null, previous: shownValue(LOGIN_KEY, store.get(LOGIN_KEY)) });
  const key = store.get(API_KEY);
  if (key !== undefined) changes.push({ action: 'unset', key: API_KEY, value: null, previous: shownValue(API_KEY, key) });
  return changes;
}

/** Removes the profile's login and stored API key; says which of them were there. */
export function forgetCredentials(store: ConfigStore): ForgottenCredentials {
  const login = clearLogin(store);
  const apiKey = store.get(API_KEY) !== undefined;
  if (apiKey) store.unset(API_KEY);
  return { login, apiKey };
}

/** `login and API key`, `login`, `API key`, or '' when nothing was stored. */
export function describeCredentials(c: ForgottenCredentials): string {
  return [c.login ? 'login' : '', c.apiKey ? 'API key' : ''].filter(Boolean).join(' and ');
}
