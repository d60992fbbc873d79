import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imeiIsValid } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OFFLINE_RATE, DEFAULT_SOS_RATE, simulatedIdentity } from './fleet';
import { findAiToken, findProvisionKey, parseInterval, parseRatePerMin } from './options';

describe('parseInterval', () => {
  it('reads seconds and milliseconds', () => {
    expect(parseInterval('1-5s')).toEqual([1, 5]);
    expect(parseInterval('2s')).toEqual([2, 2]);
    expect(parseInterval('500ms-2s')).toEqual([0.5, 2]);
    expect(parseInterval('200-800ms')).toEqual([0.2, 0.8]);
    expect(parseInterval('3')).toEqual([3, 3]);
  });
  it('refuses nonsense', () => {
    expect(() => parseInterval('fast')).toThrow(/not an interval/);
    expect(() => parseInterval('5-1s')).toThrow(/min <= max/);
    expect(() => parseInterval('0s')).toThrow(/positive/);
  });
});

describe('findProvisionKey', () => {
  it('takes the flag, then the environment, then DATA_DIR/device-provision.key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-key-'));
    writeFileSync(join(dir, 'device-provision.key'), 'from-file\n');
    expect(findProvisionKey('flag', { DEVICE_PROVISION_KEY: 'env', DATA_DIR: dir })).toBe('flag');
    expect(findProvisionKey(undefined, { DEVICE_PROVISION_KEY: 'env', DATA_DIR: dir })).toBe('env');
    expect(findProvisionKey(undefined, { DATA_DIR: dir })).toBe('from-file');
    expect(() => findProvisionKey(undefined, { DATA_DIR: join(dir, 'none') })).toThrow(/no device provisioning key/);
  });
});

describe('simulatedIdentity', () => {
  it('is stable, unique and valid', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => simulatedIdentity('SIM', i + 1));
    expect(simulatedIdentity('SIM', 7)).toEqual(ids[6]);
    expect(new Set(ids.map((d) => d.imei)).size).toBe(2000);
    expect(new Set(ids.map((d) => d.hostbody)).size).toBe(2000);
    expect(ids.every((d) => imeiIsValid(d.imei) && /^SIM\d{5}$/.test(d.hostbody))).toBe(true);
    expect(simulatedIdentity('OTHER', 1).imei).not.toBe(ids[0]!.imei);
    // some devices lack a trunk code (temporary groups must cope)
    expect(ids.filter((d) => d.jq_hostcode === '').length).toBeGreaterThan(0);
  });
});

describe('findAiToken', () => {
  it('takes the flag, then AI_ENGINE_TOKEN, then DATA_DIR/ai-engine.token, else none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-ai-'));
    writeFileSync(join(dir, 'ai-engine.token'), 'file-token\n');
    expect(findAiToken('flag', { AI_ENGINE_TOKEN: 'env', DATA_DIR: dir })).toBe('flag');
    expect(findAiToken(undefined, { AI_ENGINE_TOKEN: 'env', DATA_DIR: dir })).toBe('env');
    expect(findAiToken(undefined, { DATA_DIR: dir })).toBe('file-token');
    expect(findAiToken(undefined, { DATA_DIR: join(dir, 'none') })).toBeUndefined();
    writeFileSync(join(dir, 'ai-engine.token'), '  \n');
    expect(findAiToken(undefined, { DATA_DIR: dir })).toBeUndefined();
  });
});

describe('parseRatePerMin', () => {
  it('reads 0 to 600 results per minute', () => {
    expect(parseRatePerMin('1', '--faces-per-min')).toBe(1);
    expect(parseRatePerMin('0.5', '--plates-per-min')).toBe(0.5);
    expect(parseRatePerMin('0', '--faces-per-min')).toBe(0);
    expect(parseRatePerMin(' 600 ', '--faces-per-min')).toBe(600);
  });
  it('refuses negative, huge and non-numbers, naming the flag', () => {
    expect(() => parseRatePerMin('-1', '--faces-per-min')).toThrow(/^--faces-per-min: "-1" must be/);
    expect(() => parseRatePerMin('601', '--plates-per-min')).toThrow(/--plates-per-min/);
    expect(() => parseRatePerMin('often', '--faces-per-min')).toThrow(/results per minute/);
    expect(() => parseRatePerMin('', '--faces-per-min')).toThrow();
  });
});

describe('demo alarm noise', () => {
  it('a 100-device fleet at the default rates raises about one offline spell a minute or less, and a few SOS an hour', () => {
    const uploadsPerHour = (100 * 3600) / 3; // 1-5 s uploads: 3 s on average
    expect((uploadsPerHour * DEFAULT_OFFLINE_RATE) / 60).toBeLessThanOrEqual(1);
    expect(uploadsPerHour * DEFAULT_SOS_RATE).toBeLessThanOrEqual(10);
    expect(uploadsPerHour * DEFAULT_SOS_RATE).toBeGreaterThanOrEqual(1);
  });
});
