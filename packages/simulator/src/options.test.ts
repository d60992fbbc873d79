import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imeiIsValid } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IM_RATE, DEFAULT_OFFLINE_RATE, DEFAULT_SOS_RATE, simulatedIdentity } from './fleet';
import {
  findAiToken,
  findProvisionKey,
  parseChance,
  parseConsoleUrl,
  parseInterval,
  parseRatePerMin,
  parseTalkEvery,
} from './options';
import { consoleUrlOf } from './terminal';

describe('parseInterval', () => {
  it('reads seconds and milliseconds', () => {
    expect(parseInterval('1-5s')).toEqual([1, 5]);
    expect(parseInterval('2s')).toEqual([2, 2]);
    expect(parseInterval('500ms-2s')).toEqual([0.5, 2]);
    expect(parseInterval('200-800ms')).toEqual([0.2, 0.8]);
    expect(parseInterval('3')).toEqual([3, 3]);
    expect(parseInterval('2-4m')).toEqual([120, 240]);
    expect(parseInterval('90s-3m')).toEqual([90, 180]);
  });
  it('refuses nonsense', () => {
    expect(() => parseInterval('fast')).toThrow(/not an interval/);
    expect(() => parseInterval('5-1s')).toThrow(/min <= max/);
    expect(() => parseInterval('0s')).toThrow(/positive/);
    expect(() => parseInterval('soon', '--talk-every')).toThrow(/^--talk-every: "soon"/);
  });
});

describe('parseTalkEvery', () => {
  it('reads an interval between rounds of group talk, or off', () => {
    expect(parseTalkEvery('2-4m')).toEqual([120, 240]);
    expect(parseTalkEvery('30s')).toEqual([30, 30]);
    expect(parseTalkEvery('off')).toBeNull();
    expect(parseTalkEvery('0')).toBeNull();
    expect(() => parseTalkEvery('2s')).toThrow(/at least 10 s/);
    expect(() => parseTalkEvery('often')).toThrow(/--talk-every: "often" is not an interval/);
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

describe('parseChance', () => {
  it('reads a chance from 0 to 1', () => {
    expect(parseChance('0.0015', '--im-rate')).toBe(0.0015);
    expect(parseChance('0', '--im-rate')).toBe(0);
    expect(parseChance('1', '--reply-rate')).toBe(1);
    expect(parseChance('5e-4', '--im-rate')).toBe(0.0005);
  });
  it('refuses values outside 0-1 and non-numbers, naming the flag', () => {
    expect(() => parseChance('1.5', '--im-rate')).toThrow(/^--im-rate: "1.5" must be a chance/);
    expect(() => parseChance('-0.1', '--reply-rate')).toThrow(/--reply-rate/);
    expect(() => parseChance('often', '--im-rate')).toThrow(/chance/);
  });
});

describe('console service address', () => {
  it('is /ws/console under the server by default; --console-url takes ws:// or wss:// only', () => {
    expect(consoleUrlOf('http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/ws/console');
    expect(consoleUrlOf('https://bwc.example/')).toBe('wss://bwc.example/ws/console');
    expect(parseConsoleUrl('ws://127.0.0.1:9080/')).toBe('ws://127.0.0.1:9080/');
    expect(() => parseConsoleUrl('http://127.0.0.1:9080/')).toThrow(/must start with ws:\/\/ or wss:\/\//);
    expect(() => parseConsoleUrl('nowhere')).toThrow(/--console-url: "nowhere" is not an address/);
  });
});

describe('demo alarm noise', () => {
  it('terminals of a 100-device fleet write a few group messages a minute, not a flood', () => {
    const terminalUploadsPerHour = (70 * 3600) / 3; // 7 in 10 devices have a cluster number
    const perMinute = (terminalUploadsPerHour * DEFAULT_IM_RATE) / 60;
    expect(perMinute).toBeGreaterThanOrEqual(0.5);
    expect(perMinute).toBeLessThanOrEqual(5);
  });

  it('a 100-device fleet at the default rates raises about one offline spell a minute or less, and a few SOS an hour', () => {
    const uploadsPerHour = (100 * 3600) / 3; // 1-5 s uploads: 3 s on average
    expect((uploadsPerHour * DEFAULT_OFFLINE_RATE) / 60).toBeLessThanOrEqual(1);
    expect(uploadsPerHour * DEFAULT_SOS_RATE).toBeLessThanOrEqual(10);
    expect(uploadsPerHour * DEFAULT_SOS_RATE).toBeGreaterThanOrEqual(1);
  });
});
