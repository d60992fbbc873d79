import { randomBytes } from 'node:crypto';
import { CAPTCHA_TTL_MS } from '@bwc/protocol';
import svgCaptcha from 'svg-captcha';
import { now, type Db } from '../../db/connection';

/** svg-captcha's default export draws a given text; its typings omit that call. */
const drawCaptcha = svgCaptcha as unknown as (text: string, options: svgCaptcha.ConfigObject) => string;
const STYLE: svgCaptcha.ConfigObject = { noise: 2, color: true, background: '#f0f2f5' };

export type CaptchaCheck = 'ok' | 'wrong' | 'expired';

/** A new one-time captcha: the SVG as a data URL and the token that identifies it. */
export async function createCaptcha(
  db: Db,
  fixedText: string | undefined,
): Promise<{ token: string; captcha: string }> {
  const { text, data: svg } = fixedText
    ? { text: fixedText, data: drawCaptcha(fixedText, STYLE) }
    : svgCaptcha.create({ ...STYLE, size: 4, ignoreChars: '0oO1ilI' });
  const token = randomBytes(16).toString('hex');
  const ts = now();
  await db.deleteFrom('captchas').where('expires', '<', ts).execute();
  await db
    .insertInto('captchas')
    .values({ token, text, expires: new Date(Date.now() + CAPTCHA_TTL_MS).toISOString() })
    .execute();
  return { token, captcha: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Check and consume (one try per captcha, right or wrong). Case-insensitive. */
export async function consumeCaptcha(db: Db, token: string, answer: string): Promise<CaptchaCheck> {
  const row = await db
    .deleteFrom('captchas')
    .where('token', '=', token)
    .returning(['text', 'expires'])
    .executeTakeFirst();
  if (!row || Date.parse(row.expires) < Date.now()) return 'expired';
  return row.text.toLowerCase() === answer.trim().toLowerCase() ? 'ok' : 'wrong';
}
