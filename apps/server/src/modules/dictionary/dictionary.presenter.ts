import type { DictEntry, DictType } from '@bwc/protocol';
import type { DictEntryRow } from './dictionary.repository';

export function presentDictType(row: { code: string; name: string; name_en: string; entries: number }): DictType {
  return { code: row.code, name: row.name, name_en: row.name_en, entries: row.entries };
}

export function presentDictEntry(row: DictEntryRow): DictEntry {
  return {
    id: row.id,
    type: row.type,
    key: row.key,
    label: row.label,
    label_en: row.label_en,
    sort: row.sort,
    enabled: row.enabled,
    builtin: row.builtin,
    updated: row.updated,
  };
}
