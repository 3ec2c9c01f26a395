import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, dismissToast, getToasts, showToast, subscribeToToasts } from './toasts.ts';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    clearToasts();
    vi.useRealTimers();
  });

  it('a toast goes away by itself after 6 s', () => {
    showToast({ tone: 'success', message: 'Saved' });
    expect(getToasts().map((t) => t.message)).toEqual(['Saved']);
    vi.advanceTimersByTime(6000);
    expect(getToasts()).toEqual([]);
  });

  it('issue 13: a cleared toast leaves no timer behind to notify listeners later', () => {
    showToast({ tone: 'error', message: 'Could not load tokens' });
    clearToasts();
    const listener = vi.fn();
    const unsubscribe = subscribeToToasts(listener);
    vi.advanceTimersByTime(10_000);
    unsubscribe();
    expect(listener).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('dismissing a toast already gone changes nothing and notifies no one', () => {
    showToast({ tone: 'error', message: 'Oops' });
    const id = getToasts()[0]!.id;
    dismissToast(id);
    const snapshot = getToasts();
    const listener = vi.fn();
    const unsubscribe = subscribeToToasts(listener);
    dismissToast(id);
    unsubscribe();
    expect(listener).not.toHaveBeenCalled();
    expect(getToasts()).toBe(snapshot);
  });
});
