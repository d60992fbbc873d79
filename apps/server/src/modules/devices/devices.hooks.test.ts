import { describe, expect, it } from 'vitest';
import { ProvidedHook } from './devices.hooks';

describe('ProvidedHook', () => {
  it('answers the declared default until a provider comes, then the provider', () => {
    const hook = new ProvidedHook<() => string>('the greeting', () => 'default');
    expect(hook.current()).toBe('default');
    hook.provide(() => 'provided');
    expect(hook.current()).toBe('provided');
  });

  it('refuses a second provider with an error naming the hook', () => {
    const hook = new ProvidedHook<() => string>('the greeting', () => 'default');
    hook.provide(() => 'first');
    expect(() => hook.provide(() => 'second')).toThrow('the greeting has a provider already');
    expect(hook.current()).toBe('first');
  });
});
