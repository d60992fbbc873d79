import type { Alarm } from '@bwc/protocol';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { AlarmDetailDialog, similarityText, sortedResults } from './AlarmDetailDialog';

const face: Alarm = {
  id: 9,
  eid: 'ai:f9',
  type: '6',
  alerm_level: 'criticle',
  hostname: 'cam9',
  hostcode: 'C9',
  hostbody: 'HB9',
  gbbm: 'HB9',
  unitname: 'Futian',
  unit_id: 1,
  device_id: 9,
  alarm_time: '2026-11-21T10:00:00.000Z',
  status: '1',
  insert_time: '2026-11-21T10:00:01.000Z',
  boutefence: '',
  fence_direction: '',
  lat: 22.5431,
  lng: 114.0579,
  message: 'Zhang P1 93.5',
  hasRead: 1,
  sure: 1,
  sure_user: 'Wang',
  sure_note: 'officer sent',
  sure_time: '2026-11-21T10:05:00.000Z',
  sure_type: 1,
  index: '01',
  hostNameCode: 'cam9(C9)',
  typeName_cur: 'Face match',
  dname: 'Futian',
  picture: {
    id: 9,
    eid: 'ai:f9',
    type: '6',
    imgfile: 'aaa_scene.png',
    imgfile_big: 'aaa_big.png',
    imgfile_small: 'aaa_small.png',
    compare_result: [
      { name: 'Li', comparison: 'P2', similarity: 61.24, face_image_uri: '' },
      { name: 'Zhang', comparison: 'P1', similarity: 93.5, face_image_uri: 'aaa_cmp0.png' },
    ],
    hostname: 'cam9',
    deviceid: 'HB9',
    shottime: '2026-11-21T10:00:00.000Z',
    lat: 22.5431,
    lng: 114.0579,
  },
};

describe('alarm details', () => {
  it('similarity text and best match first', () => {
    expect(similarityText(61.24)).toBe('61.2%');
    expect(similarityText(100)).toBe('100%');
    expect(sortedResults(face.picture!.compare_result).map((r) => r.name)).toEqual(['Zhang', 'Li']);
  });

  it('shows position, acknowledgement, the scene picture and the compare results with similarity', async () => {
    await renderWidget(<AlarmDetailDialog alarm={face} gb={false} onClose={() => undefined} />, { language: 'en-US' });
    const detail = await screen.findByTestId('alarm-detail');
    expect(detail.textContent).toContain('Longitude 114.0579, latitude 22.5431');
    expect(screen.getByTestId('alarm-detail-sure').textContent).toContain('Wang');
    expect(screen.getByTestId('alarm-detail-sure').textContent).toContain('officer sent');
    expect(screen.getByTestId('alarm-detail-sure').textContent).toContain('False alarm');
    expect(screen.getByTestId('alarm-scene-picture').getAttribute('src')).toBe('/rest/mini/rtcapt/file/aaa_big.png');
    const items = screen.getAllByTestId('alarm-compare-item');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Zhang');
    expect(items[0]!.querySelector('img')?.getAttribute('src')).toBe('/rest/mini/rtcapt/file/aaa_cmp0.png');
    expect(screen.getAllByTestId('alarm-similarity').map((e) => e.textContent)).toEqual(['93.5%', '61.2%']);
    expect(items[1]!.textContent).toContain('No library face');
  });

  it('an alarm without a position or pictures says so', async () => {
    await renderWidget(
      <AlarmDetailDialog alarm={{ ...face, lat: null, lng: null, picture: null }} gb onClose={() => undefined} />,
      { language: 'zh-CN' },
    );
    const detail = await screen.findByTestId('alarm-detail');
    expect(detail.textContent).toContain('暂无定位');
    expect(screen.queryByTestId('alarm-pictures')).toBeNull();
  });
});
