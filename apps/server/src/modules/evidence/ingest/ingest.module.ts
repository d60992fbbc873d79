import type { FastifyInstance } from 'fastify';
import type { DeviceRuntime } from '../../devices/runtime';
import type { EvidenceContext } from '../evidence.module';

/** Ingest: placeholder until the upload routes land (same commit series). */
export async function registerIngest(_app: FastifyInstance, _ctx: EvidenceContext, _deps: { devices: DeviceRuntime }) {}
