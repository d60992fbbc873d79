import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../http/errors';

/**
 * The AI engine's bearer token: env AI_ENGINE_TOKEN, else DATA_DIR/ai-engine.token (made on
 * first use, so a local engine such as the simulator can read it before its first result).
 */
export class AiEngineToken {
  private hash: Buffer | null = null;

  constructor(private readonly dataDir: string) {}

  token(): string {
    const fromEnv = process.env.AI_ENGINE_TOKEN;
    if (fromEnv) return fromEnv;
    const file = join(this.dataDir, 'ai-engine.token');
    if (!existsSync(file)) {
      mkdirSync(this.dataDir, { recursive: true });
      writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
    }
    return readFileSync(file, 'utf8').trim();
  }

  /** The request carries the engine's token, else 401. */
  assert(req: FastifyRequest): void {
    this.hash ??= createHash('sha256').update(this.token()).digest();
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const hash = createHash('sha256').update(given).digest();
    if (!given || !timingSafeEqual(hash, this.hash)) throw new AppError(401, 'errors.alarm.aiToken');
  }
}
