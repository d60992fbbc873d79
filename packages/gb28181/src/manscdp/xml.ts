import { XMLParser, XMLValidator } from 'fast-xml-parser';
import iconv from 'iconv-lite';
import { ManscdpError } from './errors';

/** Limits on a body (GB28181 bodies are a few KB; a Catalog page of a few dozen channels ~10 KB). */
export const MANSCDP_LIMITS = {
  maxBytes: 64 * 1024,
  maxDepth: 12,
  maxListItems: 1000,
};

export type ManscdpCharset = 'GB2312' | 'UTF-8';

export const MANSCDP_CONTENT_TYPE = 'Application/MANSCDP+xml';

/** An element's content as the parser gives it: text, child elements, or repeated children. */
export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [name: string]: XmlValue;
}

const DECLARATION_RE = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']/;

/** iconv-lite's decoder for a declared encoding; GB2312 and GBK bodies are read as GB18030, their superset. */
function decoderFor(body: Buffer): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf8';
  const head = body.subarray(0, 200).toString('latin1');
  const declared = DECLARATION_RE.exec(head)?.[1]?.toLowerCase();
  if (declared === undefined) return 'gb18030';
  if (['gb2312', 'gbk', 'gb18030', 'cp936'].includes(declared)) return 'gb18030';
  if (['utf-8', 'utf8'].includes(declared)) return 'utf8';
  throw new ManscdpError('encoding', `unsupported encoding ${declared}`);
}

const ENTITY_REF_RE = /&(?!(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});)/;

/** The five predefined entities and character references; anything else was refused before parsing. */
function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/g, (_, ref: string) => {
    switch (ref) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
    }
    const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0)
      throw new ManscdpError('entity', `bad character reference &${ref};`);
    return String.fromCodePoint(cp);
  });
}

const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  processEntities: false,
  htmlEntities: false,
  trimValues: true,
  maxNestedTags: MANSCDP_LIMITS.maxDepth,
  isArray: (name) => name === 'Item',
  tagValueProcessor: (_name, value) => unescapeXml(value),
});

/**
 * A MANSCDP body's bytes to its root element's name and content. Refused with a ManscdpError:
 * over the size limit, an unknown encoding, a DOCTYPE or ENTITY declaration, an entity reference
 * other than XML's five, not well-formed, nested too deep, a list too long, not exactly one root.
 */
export function readXml(body: Buffer): { root: string; content: XmlObject } {
  if (!Buffer.isBuffer(body)) throw new ManscdpError('malformed', 'body is not a Buffer');
  if (body.length > MANSCDP_LIMITS.maxBytes)
    throw new ManscdpError('too_large', `${body.length} bytes, limit ${MANSCDP_LIMITS.maxBytes}`);
  if (body.length === 0) throw new ManscdpError('malformed', 'empty body');
  const text = iconv.decode(body, decoderFor(body));
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new ManscdpError('doctype', 'DOCTYPE and ENTITY declarations are refused');
  if (ENTITY_REF_RE.test(text))
    throw new ManscdpError('entity', 'only the predefined entities and character references');
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new ManscdpError('malformed', `${valid.err.msg} (line ${valid.err.line}, col ${valid.err.col})`);
  let tree: unknown;
  try {
    tree = parser.parse(text);
  } catch (err) {
    if (err instanceof ManscdpError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    throw new ManscdpError(/nested/i.test(msg) ? 'too_deep' : 'malformed', msg);
  }
  if (!tree || typeof tree !== 'object') throw new ManscdpError('root', 'no root element');
  const roots = Object.entries(tree as Record<string, unknown>);
  const first = roots[0];
  if (roots.length !== 1 || !first || Array.isArray(first[1]))
    throw new ManscdpError('root', 'exactly one root element');
  const [root, content] = first;
  if (!content || typeof content !== 'object') throw new ManscdpError('root', `<${root}> has no elements`, root);
  checkLists(content as XmlObject, '');
  return { root, content: content as XmlObject };
}

function checkLists(node: XmlValue, path: string): void {
  if (typeof node === 'string') return;
  if (Array.isArray(node)) {
    if (node.length > MANSCDP_LIMITS.maxListItems)
      throw new ManscdpError('too_many', `${node.length} items, limit ${MANSCDP_LIMITS.maxListItems}`, path);
    node.forEach((n, i) => checkLists(n, `${path}[${i}]`));
    return;
  }
  for (const [k, v] of Object.entries(node)) {
    const at = k === 'Item' ? path : path ? `${path}.${k}` : k;
    if (Array.isArray(v) && k !== 'Item') throw new ManscdpError('invalid', 'element repeated', at);
    checkLists(v, at);
  }
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/** What the writer takes: text, numbers, nested elements, and lists (written as <K Num="n"><Item>...). */
export type WritableValue = string | number | undefined | null | WritableObject | WritableObject[];
export interface WritableObject {
  [name: string]: WritableValue;
}

function writeElement(out: string[], name: string, value: WritableValue, indent: string): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    out.push(`${indent}<${name} Num="${value.length}">`);
    for (const item of value) writeElement(out, 'Item', item, `${indent}  `);
    out.push(`${indent}</${name}>`);
  } else if (typeof value === 'object') {
    out.push(`${indent}<${name}>`);
    for (const [k, v] of Object.entries(value)) writeElement(out, k, v, `${indent}  `);
    out.push(`${indent}</${name}>`);
  } else {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new ManscdpError('invalid', `not a finite number: ${value}`, name);
    out.push(`${indent}<${name}>${escapeXml(String(value))}</${name}>`);
  }
}

/** A MANSCDP body: the declaration, the root element, CRLF line ends, in GB2312 (GBK) or UTF-8. */
export function writeXml(root: string, content: WritableObject, charset: ManscdpCharset = 'GB2312'): Buffer {
  const out = [`<?xml version="1.0" encoding="${charset}"?>`];
  writeElement(out, root, content, '');
  const text = `${out.join('\r\n')}\r\n`;
  return charset === 'UTF-8' ? Buffer.from(text, 'utf8') : iconv.encode(text, 'gbk');
}
