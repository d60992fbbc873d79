import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import {
  alarmNotify,
  alarmResponse,
  alarmSubscription,
  catalogQuery,
  catalogResponsePages,
  decodeManscdp,
  deviceInfoQuery,
  deviceInfoResponse,
  deviceStatusQuery,
  encodeManscdp,
  gbTime,
  keepalive,
  mobilePositionNotify,
  mobilePositionSubscription,
  ptzControl,
  recordInfoQuery,
  tryDecodeManscdp,
} from './codec';
import { ManscdpError } from './errors';
import { decodePtz } from './ptz';
import type { ManscdpMessage } from './schemas';

const DEV = '34020000001110000001';
const CAM = '34020000001320000001';
const CAM2 = '34020000001320000002';

/** A body as a device writes it: CRLF lines, GB2312 bytes (iconv-lite's GBK encoder, a superset). */
function gb(xml: string): Buffer {
  return iconv.encode(xml.trim().replace(/\n\s*/g, '\r\n'), 'gbk');
}

/** undefined-valued keys dropped, as a decoded message has them. */
function defined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function refusal(body: Buffer): ManscdpError {
  const r = tryDecodeManscdp(body);
  if (r.ok) throw new Error(`decoded: ${JSON.stringify(r.message)}`);
  expect(r.error).toBeInstanceOf(ManscdpError);
  return r.error;
}

const ITEMS = [
  {
    DeviceID: CAM,
    Name: '东门摄像机 1',
    Manufacturer: '海康威视',
    Model: 'DS-2CD3T46',
    Owner: 'Owner',
    CivilCode: '340200',
    Address: '深圳市福田区 <北> & "南"',
    Parental: 0,
    ParentID: DEV,
    RegisterWay: 1,
    Secrecy: 0,
    Status: 'ON' as const,
    Longitude: 114.057868,
    Latitude: 22.543099,
  },
  { DeviceID: CAM2, Name: '西门', Parental: 0, ParentID: DEV, Status: 'OFF' as const },
];

const MESSAGES: ManscdpMessage[] = [
  catalogQuery({ sn: 1, deviceId: DEV }),
  catalogQuery({ sn: 2, deviceId: DEV, startTime: '2026-11-27T08:00:00', endTime: '2026-11-27T09:00:00' }),
  deviceInfoQuery({ sn: 3, deviceId: DEV }),
  deviceStatusQuery({ sn: 4, deviceId: DEV }),
  recordInfoQuery({ sn: 5, deviceId: CAM, startTime: '2026-11-27T00:00:00', endTime: '2026-11-27T23:59:59' }),
  alarmSubscription({ sn: 6, deviceId: DEV }),
  mobilePositionSubscription({ sn: 7, deviceId: CAM, interval: 5 }),
  ptzControl({ sn: 8, deviceId: CAM, ptz: { action: 'upleft', speed: 100 } }),
  ptzControl({ sn: 9, deviceId: CAM, ptz: { action: 'preset_call', preset: 12 } }),
  alarmResponse({ sn: 10, deviceId: CAM }),
  keepalive({ sn: 11, deviceId: DEV }),
  keepalive({ sn: 12, deviceId: DEV, status: 'ERROR' }),
  ...catalogResponsePages({ sn: 13, deviceId: DEV, items: ITEMS, pageSize: 1 }),
  ...catalogResponsePages({ sn: 14, deviceId: DEV, items: [] }),
  deviceInfoResponse({
    sn: 15,
    deviceId: DEV,
    name: '一号录像机',
    manufacturer: 'Hikvision',
    model: 'NVR',
    firmware: 'V4.0',
    channels: 2,
  }),
  mobilePositionNotify({
    sn: 16,
    deviceId: CAM,
    time: '2026-11-27T08:30:00',
    longitude: 114.1,
    latitude: 22.5,
    speed: 36.5,
    direction: 270,
    altitude: 12,
  }),
  alarmNotify({
    sn: 17,
    deviceId: CAM,
    priority: 1,
    method: 2,
    time: '2026-11-27T08:31:00',
    description: '区域入侵',
    longitude: 114.1,
    latitude: 22.5,
    alarmType: 2,
  }),
  { kind: 'Response', CmdType: 'DeviceControl', SN: 18, DeviceID: CAM, Result: 'OK' },
  {
    kind: 'Response',
    CmdType: 'DeviceStatus',
    SN: 19,
    DeviceID: DEV,
    Result: 'OK',
    Online: 'ONLINE',
    Status: 'OK',
    Encode: 'ON',
    Record: 'OFF',
    DeviceTime: '2026-11-27T08:32:00',
    Alarmstatus: [{ DeviceID: CAM, DutyStatus: 'ONDUTY' }],
  },
  {
    kind: 'Response',
    CmdType: 'RecordInfo',
    SN: 20,
    DeviceID: CAM,
    Name: '东门',
    SumNum: 1,
    RecordList: [
      {
        DeviceID: CAM,
        Name: '东门',
        FilePath: '/rec/1.ps',
        StartTime: '2026-11-27T08:00:00',
        EndTime: '2026-11-27T08:10:00',
        Secrecy: 0,
        Type: 'time',
        FileSize: 1048576,
      },
    ],
  },
  {
    kind: 'Control',
    CmdType: 'DeviceControl',
    SN: 21,
    DeviceID: CAM,
    RecordCmd: 'Record',
    GuardCmd: 'SetGuard',
    AlarmCmd: 'ResetAlarm',
    Info: { ControlPriority: 5 },
  },
  { kind: 'Control', CmdType: 'DeviceControl', SN: 22, DeviceID: DEV, TeleBoot: 'Boot' },
];

describe('MANSCDP round trips', () => {
  it.each(MESSAGES.map((m) => [`${m.kind} ${m.CmdType} SN ${m.SN}`, m] as const))(
    '%s, GB2312 and UTF-8',
    (_, message) => {
      const gbBody = encodeManscdp(message);
      expect(gbBody.subarray(0, 40).toString('latin1')).toBe('<?xml version="1.0" encoding="GB2312"?>\r');
      expect(decodeManscdp(gbBody)).toEqual(defined(message));
      const utf8Body = encodeManscdp(message, 'UTF-8');
      expect(utf8Body.toString('utf8')).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\r\n/);
      expect(decodeManscdp(utf8Body)).toEqual(defined(message));
    },
  );

  it('writes GB2312 bytes and escapes markup', () => {
    const body = encodeManscdp(catalogResponsePages({ sn: 1, deviceId: DEV, items: ITEMS })[0]!);
    // 东 is B6 AB in GB2312
    expect(body.includes(Buffer.from([0xb6, 0xab]))).toBe(true);
    expect(body.includes(Buffer.from('东', 'utf8'))).toBe(false);
    expect(iconv.decode(body, 'gbk')).toContain('<Address>深圳市福田区 &lt;北&gt; &amp; &quot;南&quot;</Address>');
    expect(iconv.decode(body, 'gbk')).toContain('<DeviceList Num="2">');
  });

  it('refuses to write what a peer would refuse', () => {
    expect(() => encodeManscdp(keepalive({ sn: 1, deviceId: '3402' }))).toThrow(
      expect.objectContaining({ code: 'invalid', field: 'DeviceID' }),
    );
    const at = { sn: 1, deviceId: CAM, time: '2026-11-27T08:30:00', latitude: 22.5 };
    expect(() => encodeManscdp(mobilePositionNotify({ ...at, longitude: NaN }))).toThrow(
      expect.objectContaining({ code: 'invalid', field: 'Longitude' }),
    );
    const many = Array.from({ length: 400 }, (_, i) => ({
      ...ITEMS[0]!,
      DeviceID: `3402000000132${String(i).padStart(7, '0')}`,
    }));
    expect(() => encodeManscdp(catalogResponsePages({ sn: 1, deviceId: DEV, items: many, pageSize: 400 })[0]!)).toThrow(
      expect.objectContaining({ code: 'too_large' }),
    );
  });

  it('splits a catalogue into pages with the same SN and SumNum', () => {
    const pages = catalogResponsePages({
      sn: 3,
      deviceId: DEV,
      items: [...ITEMS, { ...ITEMS[1]!, DeviceID: '34020000001320000003' }],
      pageSize: 2,
    });
    expect(pages.map((p) => [p.SN, p.SumNum, p.DeviceList.length])).toEqual([
      [3, 3, 2],
      [3, 3, 1],
    ]);
  });

  it('writes the PTZ command of A.3', () => {
    const m = decodeManscdp(encodeManscdp(ptzControl({ sn: 1, deviceId: CAM, ptz: { action: 'stop' } })));
    expect(m).toMatchObject({ kind: 'Control', PTZCmd: 'A50F0100000000B5' });
    expect(gbTime(new Date('2026-11-27T00:30:00Z'))).toBe('2026-11-27T08:30:00');
  });
});

describe('MANSCDP bodies as devices write them', () => {
  it('reads a GB2312 Catalog answer with Chinese names (A.2.6.4)', () => {
    const body = gb(`
      <?xml version="1.0" encoding="GB2312"?>
      <Response>
      <CmdType>Catalog</CmdType>
      <SN>17430</SN>
      <DeviceID>${DEV}</DeviceID>
      <SumNum>2</SumNum>
      <DeviceList Num="2">
      <Item>
      <DeviceID>${CAM}</DeviceID>
      <Name>大门口枪机</Name>
      <Manufacturer>大华</Manufacturer>
      <Model>IPC-HFW</Model>
      <Owner>Owner</Owner>
      <CivilCode>3402000000</CivilCode>
      <Address>一楼 &amp; 大厅</Address>
      <Parental>0</Parental>
      <ParentID>${DEV}</ParentID>
      <SafetyWay>0</SafetyWay>
      <RegisterWay>1</RegisterWay>
      <Secrecy>0</Secrecy>
      <Status>ON</Status>
      <Longitude>117.2272</Longitude>
      <Latitude>31.8206</Latitude>
      <Info><PTZType>1</PTZType></Info>
      </Item>
      <Item>
      <DeviceID>${CAM2}</DeviceID>
      <Name>停车场&#x7403;机</Name>
      <Status>OFFLINE</Status>
      <Longitude></Longitude>
      </Item>
      </DeviceList>
      </Response>`);
    const m = decodeManscdp(body);
    expect(m).toMatchObject({ kind: 'Response', CmdType: 'Catalog', SN: 17430, DeviceID: DEV, SumNum: 2 });
    if (m.kind !== 'Response' || m.CmdType !== 'Catalog') throw new Error('not a Catalog answer');
    expect(m.DeviceList[0]).toEqual({
      DeviceID: CAM,
      Name: '大门口枪机',
      Manufacturer: '大华',
      Model: 'IPC-HFW',
      Owner: 'Owner',
      CivilCode: '3402000000',
      Address: '一楼 & 大厅',
      Parental: 0,
      ParentID: DEV,
      SafetyWay: 0,
      RegisterWay: 1,
      Secrecy: 0,
      Status: 'ON',
      Longitude: 117.2272,
      Latitude: 31.8206,
      Info: { PTZType: 1 },
    });
    expect(m.DeviceList[1]).toEqual({ DeviceID: CAM2, Name: '停车场球机', Status: 'OFF' });
  });

  it('reads a body without declaration as GB2312, and GBK characters outside GB2312', () => {
    const body = gb(`<Notify><CmdType>Alarm</CmdType><SN>5</SN><DeviceID>${CAM}</DeviceID>
      <AlarmPriority>2</AlarmPriority><AlarmMethod>5</AlarmMethod><AlarmTime>2026-11-27T10:00:00</AlarmTime>
      <AlarmDescription>鏡頭遮擋</AlarmDescription><Info><AlarmType>4</AlarmType></Info></Notify>`);
    expect(decodeManscdp(body)).toEqual({
      kind: 'Notify',
      CmdType: 'Alarm',
      SN: 5,
      DeviceID: CAM,
      AlarmPriority: 2,
      AlarmMethod: 5,
      AlarmTime: '2026-11-27T10:00:00',
      AlarmDescription: '鏡頭遮擋',
      Info: { AlarmType: 4 },
    });
  });

  it('reads UTF-8 bodies, declared or with a BOM', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Notify><CmdType>MobilePosition</CmdType><SN>9</SN><DeviceID>${CAM}</DeviceID><Time>2026-11-27T10:00:00</Time>
<Longitude>116.397128</Longitude><Latitude>39.916527</Latitude><Speed>0.0</Speed><Direction>90</Direction><Altitude>50</Altitude></Notify>`;
    const expected = {
      kind: 'Notify',
      CmdType: 'MobilePosition',
      SN: 9,
      DeviceID: CAM,
      Time: '2026-11-27T10:00:00',
      Longitude: 116.397128,
      Latitude: 39.916527,
      Speed: 0,
      Direction: 90,
      Altitude: 50,
    };
    expect(decodeManscdp(Buffer.from(xml, 'utf8'))).toEqual(expected);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml.replace(/^.*\n/, ''), 'utf8')]);
    expect(decodeManscdp(bom)).toEqual(expected);
    const named = `<?xml version='1.0' encoding='utf-8'?><Response><CmdType>DeviceInfo</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID><DeviceName>中文名</DeviceName><Result>OK</Result><Channel>16</Channel></Response>`;
    expect(decodeManscdp(Buffer.from(named, 'utf8'))).toEqual({
      kind: 'Response',
      CmdType: 'DeviceInfo',
      SN: 1,
      DeviceID: DEV,
      DeviceName: '中文名',
      Result: 'OK',
      Channel: 16,
    });
  });

  it('reads a Keepalive, a DeviceStatus answer and a PTZ DeviceControl', () => {
    expect(
      decodeManscdp(
        gb(
          `<?xml version="1.0" encoding="GB2312"?><Notify><CmdType>Keepalive</CmdType><SN>43</SN><DeviceID>${DEV}</DeviceID><Status>OK</Status></Notify>`,
        ),
      ),
    ).toEqual({ kind: 'Notify', CmdType: 'Keepalive', SN: 43, DeviceID: DEV, Status: 'OK' });
    const status = decodeManscdp(
      gb(`<?xml version="1.0" encoding="GB2312"?><Response><CmdType>DeviceStatus</CmdType><SN>2</SN><DeviceID>${DEV}</DeviceID>
      <Result>OK</Result><Online>ONLINE</Online><Status>OK</Status><Reason>正常</Reason><Encode>ON</Encode><Record>OFF</Record>
      <DeviceTime>2026-11-27T10:00:00</DeviceTime><Alarmstatus Num="1"><Item><DeviceID>${CAM}</DeviceID><DutyStatus>OFFDUTY</DutyStatus></Item></Alarmstatus></Response>`),
    );
    expect(status).toMatchObject({
      Online: 'ONLINE',
      Reason: '正常',
      Alarmstatus: [{ DeviceID: CAM, DutyStatus: 'OFFDUTY' }],
    });
    const control = decodeManscdp(
      gb(
        `<?xml version="1.0" encoding="GB2312"?><Control><CmdType>DeviceControl</CmdType><SN>11</SN><DeviceID>${CAM}</DeviceID><PTZCmd>A50F010280000037</PTZCmd><Info><ControlPriority>5</ControlPriority></Info></Control>`,
      ),
    );
    if (control.kind !== 'Control' || !control.PTZCmd) throw new Error('no PTZCmd');
    expect(decodePtz(control.PTZCmd)).toMatchObject({ action: 'left', panSpeed: 0x80 });
  });

  it('returns an unknown CmdType as unsupported with its SN and DeviceID', () => {
    const body = gb(
      `<?xml version="1.0" encoding="GB2312"?><Notify><CmdType>MediaStatus</CmdType><SN>77</SN><DeviceID>${CAM}</DeviceID><NotifyType>121</NotifyType></Notify>`,
    );
    expect(decodeManscdp(body)).toEqual({
      kind: 'unsupported',
      root: 'Notify',
      CmdType: 'MediaStatus',
      SN: 77,
      DeviceID: CAM,
    });
    expect(decodeManscdp(gb('<Foo><CmdType>Catalog</CmdType></Foo>'))).toEqual({
      kind: 'unsupported',
      root: 'Foo',
      CmdType: 'Catalog',
    });
    expect(decodeManscdp(gb('<Query><CmdType>toString</CmdType></Query>'))).toMatchObject({ kind: 'unsupported' });
  });

  it('names the field at fault', () => {
    const cases: [string, string][] = [
      [`<Notify><SN>1</SN><DeviceID>${DEV}</DeviceID></Notify>`, 'CmdType'],
      [
        `<Notify><CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>3402000000111000000</DeviceID><Status>OK</Status></Notify>`,
        'DeviceID',
      ],
      [`<Notify><CmdType>Keepalive</CmdType><SN>x</SN><DeviceID>${DEV}</DeviceID><Status>OK</Status></Notify>`, 'SN'],
      [`<Notify><CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID></Notify>`, 'Status'],
      [
        `<Response><CmdType>Catalog</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID><SumNum>2</SumNum><DeviceList Num="2">
        <Item><DeviceID>${CAM}</DeviceID></Item><Item><DeviceID>1234</DeviceID></Item></DeviceList></Response>`,
        'DeviceList[1].DeviceID',
      ],
      [
        `<Notify><CmdType>MobilePosition</CmdType><SN>1</SN><DeviceID>${CAM}</DeviceID><Time>2026-11-27T10:00:00</Time><Longitude>190</Longitude><Latitude>30</Latitude></Notify>`,
        'Longitude',
      ],
      [
        `<Notify><CmdType>Alarm</CmdType><SN>1</SN><DeviceID>${CAM}</DeviceID><AlarmPriority>9</AlarmPriority><AlarmMethod>2</AlarmMethod><AlarmTime>2026-11-27T10:00:00</AlarmTime></Notify>`,
        'AlarmPriority',
      ],
      [
        `<Control><CmdType>DeviceControl</CmdType><SN>1</SN><DeviceID>${CAM}</DeviceID><PTZCmd>A50F0100000000B6</PTZCmd></Control>`,
        'PTZCmd',
      ],
      [
        `<Query><CmdType>RecordInfo</CmdType><SN>1</SN><DeviceID>${CAM}</DeviceID><StartTime>yesterday</StartTime><EndTime>2026-11-27T10:00:00</EndTime></Query>`,
        'StartTime',
      ],
      [
        `<Notify><CmdType>Keepalive</CmdType><SN>1</SN><SN>2</SN><DeviceID>${DEV}</DeviceID><Status>OK</Status></Notify>`,
        'SN',
      ],
    ];
    for (const [xml, field] of cases) {
      const err = refusal(gb(xml));
      expect([err.code, err.field]).toEqual([expect.stringMatching(/^invalid$/), field]);
    }
  });
});
