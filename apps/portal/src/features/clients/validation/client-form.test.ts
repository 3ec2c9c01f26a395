import { describe, expect, it } from 'vitest';
import {
  validateClientEditForm,
  validateClientForm,
  validateClientName,
  validateRedirectUrl,
  type ClientEditInput,
} from './client-form.ts';

const EDIT_DEFAULTS: ClientEditInput = {
  name: 'App',
  redirectUris: 'com.example.app:/callback\nhttps://app.example.com/cb',
  postLogoutRedirectUri: '',
  description: '',
  homepage: '',
  privacyPolicy: '',
  terms: '',
};

describe('API client form checks: the server’s own rules (RU-09, HD-04)', () => {
  it.each([
    'https://app.example.com/callback',
    'https://app.example.com/callback?tenant=1',
    'http://localhost:3000/cb',
    'http://127.0.0.1:8080/cb',
    'http://[::1]:8080/cb',
  ])('accepts %s', (url) => {
    expect(validateRedirectUrl(url)).toBeUndefined();
  });

  it.each([
    ['', 'Enter a redirect URL.'],
    ['app.example.com/callback', 'The redirect URL must be an absolute URL such as https://app.example/callback.'],
    ['http://app.example.com/callback', 'Use https, or http only for localhost, 127.0.0.1 or [::1].'],
    ['http://localhost.evil.test/cb', 'Use https, or http only for localhost, 127.0.0.1 or [::1].'],
    ['javascript:alert(1)', 'The redirect URL must use https (or http for a loopback address).'],
    ['https://app.example.com/cb#frag', 'The redirect URL must not contain a fragment (#).'],
    ['https://*.example.com/cb', 'The redirect URL must not contain a wildcard (*).'],
    ['https://user:pw@app.example.com/cb', 'The redirect URL must not contain a user name or password.'],
    ['https://app.example.com/cb?state=x', 'The redirect URL must not carry code, state or iss query parameters.'],
    ['https://app.example.com/a b', 'The redirect URL must not contain spaces or control characters.'],
    [
      'https://münchen.example/cb',
      'The redirect URL may contain only the characters RFC 3986 allows; percent-encode the others and write an internationalized domain in its xn-- form.',
    ],
  ])('refuses %s', (url, message) => {
    expect(validateRedirectUrl(url)).toBe(message);
  });

  it('requires a client name of at most 100 characters', () => {
    expect(validateClientName('   ')).toBe('Enter a client name.');
    expect(validateClientName('a'.repeat(100))).toBeUndefined();
    expect(validateClientName('a'.repeat(101))).toBe('Use at most 100 characters.');
    expect(validateClientForm({ name: '', redirectUri: '' })).toEqual({
      name: 'Enter a client name.',
      redirectUri: 'Enter a redirect URL.',
    });
  });

  it('PC-05 accepts a private-use scheme redirect URL only for a public client', () => {
    expect(validateRedirectUrl('com.example.app:/callback')).toBe(
      'The redirect URL must use https (or http for a loopback address).',
    );
    expect(validateRedirectUrl('com.example.app:/callback', 'redirect_uri', true)).toBeUndefined();
    expect(validateClientForm({ name: 'App', redirectUri: 'com.example.app:/callback', public: true })).toEqual({});
    expect(validateClientEditForm(EDIT_DEFAULTS, true)).toEqual({});
    expect(validateClientEditForm(EDIT_DEFAULTS)).toEqual({
      redirectUris: 'com.example.app:/callback: The redirect URL must use https (or http for a loopback address).',
    });
  });
});
