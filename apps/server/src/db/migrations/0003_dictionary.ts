import type { CreateTableBuilder, Kysely } from 'kysely';
import { DICT_TYPES } from '@bwc/protocol';
import { isPostgres, now } from '../connection';

/** Same autoincrement id as 0001_foundation (the one dialect difference). */
function withId<T extends string>(
  db: Kysely<unknown>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

type Entry = [key: string, label: string, labelEn: string];

/**
 * Dictionary types every installation has, with their built-in entries (Chinese first, English
 * names). Keys are the values other records store: alarm `type` is a numeric string where 0 is
 * the electric-fence alarm (spec part 1 section 3) and type 5 stops live video; alarm levels keep
 * the wire's spelling.
 */
const SEED: { code: string; name: string; name_en: string; entries: Entry[] }[] = [
  {
    code: DICT_TYPES.ALARM_TYPE,
    name: '报警类型',
    name_en: 'Alarm types',
    entries: [
      ['0', '电子围栏报警', 'Electronic fence alarm'],
      ['1', 'SOS 一键报警', 'SOS alarm'],
      ['2', '低电量报警', 'Low battery'],
      ['3', '存储空间不足', 'Storage almost full'],
      ['4', '超速报警', 'Overspeed'],
      ['5', '设备离线报警', 'Device went offline'],
      ['6', '人脸比对报警', 'Face match alarm'],
      ['7', '车牌比对报警', 'Licence plate match alarm'],
    ],
  },
  {
    code: DICT_TYPES.ALARM_LEVEL,
    name: '报警级别',
    name_en: 'Alarm levels',
    entries: [
      ['criticle', '紧急', 'Critical'],
      ['middle', '重要', 'Major'],
      ['normal', '一般', 'Normal'],
    ],
  },
  {
    code: DICT_TYPES.DEVICE_TYPE,
    name: '设备类型',
    name_en: 'Device types',
    entries: [
      ['1', '执法记录仪', 'Body-worn camera'],
      ['2', '车载终端', 'Vehicle terminal'],
      ['3', '布控球', 'Deployable PTZ camera'],
      ['4', '无人机', 'Drone'],
      ['5', '采集工作站', 'Docking workstation'],
      ['6', '对讲终端', 'Push-to-talk terminal'],
    ],
  },
  {
    code: DICT_TYPES.MEDIA_CATEGORY,
    name: '媒体类别',
    name_en: 'Media categories',
    entries: [
      ['1', '视频', 'Video'],
      ['2', '音频', 'Audio'],
      ['3', '图片', 'Picture'],
      ['4', '其他', 'Other'],
    ],
  },
];

/** Data dictionary (configcenter DataDictionary, menu 10450). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dict_types')
    .addColumn('code', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await withId(db, db.schema.createTable('dict_entries'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull().references('dict_types.code').onDelete('cascade'))
    .addColumn('key', 'varchar(32)', (c) => c.notNull())
    .addColumn('label', 'varchar(64)', (c) => c.notNull())
    .addColumn('label_en', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('dict_entries_type_key', ['type', 'key'])
    .execute();

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const seed = db as Kysely<any>;
  const ts = now();
  for (const [i, type] of SEED.entries()) {
    await seed
      .insertInto('dict_types')
      .values({ code: type.code, name: type.name, name_en: type.name_en, sort: i })
      .execute();
    await seed
      .insertInto('dict_entries')
      .values(
        type.entries.map(([key, label, label_en], sort) => ({
          type: type.code,
          key,
          label,
          label_en,
          sort,
          enabled: 1,
          builtin: 1,
          created: ts,
          updated: ts,
        })),
      )
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dict_entries').execute();
  await db.schema.dropTable('dict_types').execute();
}
