import type { ConfigStore } from '../config.js';
import type { SettingChange } from '../config-change.js';
import { shownValue } from '../config-change.js';
import { clearLogin, LOGIN_KEY } from './token-store.js';

const API_KEY = 'api-key';

export interface ForgottenCredentials {
  login: boolean;
  apiKey: boolean;
}

/** The client registration (a public id, no secret) is kept, so the next login does not register again. */
export function logoutChanges(store: ConfigStore): SettingChange[] {
  const changes: SettingChange[] = [];
  if (store.get(LOGIN_KEY) !== undefined)
    changes.push({ action: 'unset', key: 'login', value: null, previous: shownValue(LOGIN_KEY, store.get(LOGIN_KEY)) });
  const key = store.get(API_KEY);
  if (key !== undefined)
    changes.push({ action: 'unset', key: API_KEY, value: null, previous: shownValue(API_KEY, key) });
  return changes;
}

export function forgetCredentials(store: ConfigStore): ForgottenCredentials {
  const login = clearLogin(store);
  const apiKey = store.get(API_KEY) !== undefined;
  if (apiKey) store.unset(API_KEY);
  return { login, apiKey };
}

export function describeCredentials(c: ForgottenCredentials): string {
  return [c.login ? 'login' : '', c.apiKey ? 'API key' : ''].filter(Boolean).join(' and ');
}
