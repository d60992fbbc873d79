import type { Alarm, Language } from '@bwc/protocol';
import ExcelJS from 'exceljs';

/**
 * Alarms as an .xlsx workbook with translated headers, and its file name: the history pages'
 * export, and the data centre's reports that list alarms.
 */
export async function alarmWorkbook(
  alarms: Alarm[],
  levels: { key: string; label: string; label_en: string }[],
  lang: Language,
  t: (key: string) => string,
): Promise<{ fileName: string; content: Buffer }> {
  const levelLabel = (k: string) => {
    const e = levels.find((x) => x.key === k);
    return e ? (lang === 'en-US' ? e.label_en || e.label : e.label) : k;
  };
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(t('export.alarm.sheet'));
  const col = (key: string, width: number) => ({ header: t(`export.alarm.${key}`), key, width });
  sheet.columns = [
    col('index', 8),
    col('time', 26),
    col('type', 22),
    col('level', 10),
    col('hostname', 16),
    col('hostcode', 12),
    col('hostbody', 16),
    col('unit', 20),
    col('lat', 12),
    col('lng', 12),
    col('message', 30),
    col('read', 8),
    col('sure', 12),
    col('sure_user', 14),
    col('sure_note', 30),
    col('sure_time', 26),
    col('insert_time', 26),
  ];
  sheet.getRow(1).font = { bold: true };
  alarms.forEach((a, i) =>
    sheet.addRow({
      index: i + 1,
      time: a.alarm_time,
      type: a.typeName_cur,
      level: levelLabel(a.alerm_level),
      hostname: a.hostname,
      hostcode: a.hostcode,
      hostbody: a.hostbody,
      unit: a.unitname,
      lat: a.lat ?? '',
      lng: a.lng ?? '',
      message: a.message,
      read: t(a.hasRead ? 'export.alarm.yes' : 'export.alarm.no'),
      sure: t(a.sure ? 'export.alarm.sured' : 'export.alarm.unsured'),
      sure_user: a.sure_user,
      sure_note: a.sure_note,
      sure_time: a.sure_time,
      insert_time: a.insert_time,
    }),
  );
  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return { fileName: `${t('export.alarm.file')}_${stamp}.xlsx`, content };
}
