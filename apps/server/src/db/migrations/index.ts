import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation';
import * as m0002 from './0002_announcements_downloads';
import * as m0003 from './0003_dictionary';
import * as m0004 from './0004_devices';
import * as m0005 from './0005_geo';
import * as m0006 from './0006_alarms';
import * as m0007 from './0007_console_service';
import * as m0008 from './0008_oplog_message_keys';
import * as m0009 from './0009_message_push';
import * as m0010 from './0010_alarm_ack_type';
import * as m0011 from './0011_console_media';
import * as m0012 from './0012_console_login_node';
import * as m0013 from './0013_media_publish_keys';
import * as m0014 from './0014_talk_records';
import * as m0015 from './0015_call_records';
import * as m0016 from './0016_evidence';
import * as m0017 from './0017_evidence_library';
import * as m0018 from './0018_evidence_cases';
import * as m0019 from './0019_evidence_search';
import * as m0020 from './0020_evidence_review';
import * as m0021 from './0021_evidence_retention';
import * as m0022 from './0022_workstations';
import * as m0023 from './0023_evidence_access';
import * as m0024 from './0024_evidence_keyword';
import * as m0025 from './0025_evidence_alarm';
import * as m0026 from './0026_case_samples';
import * as m0027 from './0027_rubric_versions';
import * as m0029 from './0029_evidence_filters';
import * as m0030 from './0030_gb_devices';
import * as m0031 from './0031_gb_alarm_type';

/**
 * Every migration, by name. Kysely runs them in name order, once each, on SQLite and PostgreSQL.
 * Add a file `NNNN_<what>.ts` exporting `up` (and `down`) and list it here.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_announcements_downloads': m0002,
  '0003_dictionary': m0003,
  '0004_devices': m0004,
  '0005_geo': m0005,
  '0006_alarms': m0006,
  '0007_console_service': m0007,
  '0008_oplog_message_keys': m0008,
  '0009_message_push': m0009,
  '0010_alarm_ack_type': m0010,
  '0011_console_media': m0011,
  '0012_console_login_node': m0012,
  '0013_media_publish_keys': m0013,
  '0014_talk_records': m0014,
  '0015_call_records': m0015,
  '0016_evidence': m0016,
  '0017_evidence_library': m0017,
  '0018_evidence_cases': m0018,
  '0019_evidence_search': m0019,
  '0020_evidence_review': m0020,
  '0021_evidence_retention': m0021,
  '0022_workstations': m0022,
  '0023_evidence_access': m0023,
  '0024_evidence_keyword': m0024,
  '0025_evidence_alarm': m0025,
  '0026_case_samples': m0026,
  '0027_rubric_versions': m0027,
  '0029_evidence_filters': m0029,
  '0030_gb_devices': m0030,
  '0031_gb_alarm_type': m0031,
};
