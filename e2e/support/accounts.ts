// People in the journeys: each test makes its own, with a unique email, through the real pages.
import { randomBytes } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

export interface Account {
  name: string;
  email: string;
  password: string;
}

export function newAccount(name: string): Account {
  const id = randomBytes(5).toString('hex');
  const local = name.toLowerCase().replace(/[^a-z]+/g, '.');
  return { name, email: `${local}.${id}@example.test`, password: `correct horse ${randomBytes(5).toString('hex')}` };
}

/** The authorization server's sign-in page is showing (by its field labels). */
export async function expectSignInPage(page: Page): Promise<void> {
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
}

/** On the sign-in page: follow Create account and submit Name, Email, Password. */
export async function createAccountFromSignIn(page: Page, account: Account): Promise<void> {
  await expectSignInPage(page);
  await page.getByRole('link', { name: 'Create account' }).click();
  await page.getByLabel('Name', { exact: true }).fill(account.name);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** On the sign-in page: Email (unless already filled in), Password, Sign in. */
export async function signInWith(page: Page, account: Account): Promise<void> {
  await expectSignInPage(page);
  const email = page.getByLabel('Email', { exact: true });
  if ((await email.inputValue()) === '') await email.fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The portal's navigation is showing: someone is signed in. */
export async function expectPortal(page: Page): Promise<void> {
  const nav = page.getByRole('navigation').first();
  for (const label of ['API clients', 'API tokens', 'Explorer']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** A new account made through the portal: `/` → sign-in page → Create account → back in the portal. */
export async function signUpThroughPortal(page: Page, account: Account): Promise<void> {
  await page.goto('/');
  await createAccountFromSignIn(page, account);
  await expectPortal(page);
}
