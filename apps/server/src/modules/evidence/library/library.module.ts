import type { FastifyInstance } from 'fastify';
import type { EvidenceContext } from '../evidence.module';

/** Library: placeholder until the library routes land (same commit series). */
export async function registerLibrary(_app: FastifyInstance, _ctx: EvidenceContext) {}
