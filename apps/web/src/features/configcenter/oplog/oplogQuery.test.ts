import { Api, OperationLogQuery } from '@bwc/protocol';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { actionLabelKey, actionPath, oplogQuery } from './oplogQuery';

describe('operation log query', () => {
  it('sends picked local times as UTC instants the protocol accepts', () => {
    const query = oplogQuery({
      username: 'adm',
      start: '2026-11-01 00:00:00',
      end: '2026-11-20 23:59:59',
      result: 'failure',
      unit_id: '',
    });
    expect(query.username).toBe('adm');
    expect(query.result).toBe('failure');
    expect(query.unit_id).toBeUndefined();
    expect(query.start).toBe(dayjs('2026-11-01 00:00:00').toISOString());
    expect(new Date(query.end!).getTime() - new Date(query.start!).getTime()).toBe(
      dayjs('2026-11-20 23:59:59').valueOf() - dayjs('2026-11-01 00:00:00').valueOf(),
    );
    const parsed = OperationLogQuery.parse({ page: '1', limit: '20', ...query });
    expect(parsed.start).toBe(query.start);
  });

  it('names known actions and leaves unknown paths unnamed', () => {
    expect(actionPath('unitAdd')).toBe(Api.unitAdd.path);
    expect(actionLabelKey(Api.roleAuthUpdate.path)).toBe('oplog.actionName.roleAuthUpdate');
    expect(actionLabelKey('/rest/nothing/here')).toBeNull();
  });
});
