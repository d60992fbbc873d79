import { BorderOutlined, DragOutlined, GatewayOutlined } from '@ant-design/icons';
import {
  FENCE_RULES,
  FenceAddRequest,
  MenuId,
  ZoneAddRequest,
  shapeBounds,
  type Fence,
  type FenceRule,
  type FenceShape,
  type Zone,
} from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, Popconfirm, Select, Space, Switch, Table, Tag, Tooltip } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { flagSwitchProps } from '../../app/forms/flagSwitch';
import { usePermission } from '../../app/session/Permission';
import { useCrud } from '../../components/crud';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../components/form-dialog';
import {
  UnitTreeSelect,
  isUnitNode,
  loadDeviceLevel,
  loadUnitLevel,
  rememberUnitTreeLabels,
} from '../../components/unit-tree';
import { keysOf } from '../../i18n/keys';
import { toDisplay } from '../../map/coords';
import { DrawControl, type DrawShape } from '../../map/DrawControl';
import { MapScreen, type MapHandle } from '../../map/MapScreen';
import { ringToShape } from '../../map/shapes';
import { ShapesLayer } from '../../map/ShapesLayer';
import './mapconfig.css';

export type GeoKind = 'fence' | 'zone';
type Row = Fence | Zone;

const API = {
  fence: {
    list: 'fenceList',
    add: 'fenceAdd',
    update: 'fenceUpdate',
    del: 'fenceDelete',
    menu: MenuId.ELECTRONIC_FENCE,
    schema: FenceAddRequest,
    texts: keysOf('map', { title: 'geo.title.fence', add: 'geo.form.add.fence', edit: 'geo.form.edit.fence' }),
  },
  zone: {
    list: 'zoneList',
    add: 'zoneAdd',
    update: 'zoneUpdate',
    del: 'zoneDelete',
    menu: MenuId.ZONES,
    schema: ZoneAddRequest,
    texts: keysOf('map', { title: 'geo.title.zone', add: 'geo.form.add.zone', edit: 'geo.form.edit.zone' }),
  },
} as const;

const DEVICE_PREFIX = 'device:';
const RULE_LABELS = keysOf('map', {
  enter: 'geo.rules.enter',
  exit: 'geo.rules.exit',
  both: 'geo.rules.both',
} satisfies Record<FenceRule, string>);
const TOOL_LABELS = keysOf('map', {
  pan: 'geo.tool.pan',
  polygon: 'geo.tool.polygon',
  circle: 'geo.tool.circle',
  rectangle: 'geo.tool.rectangle',
} satisfies Record<'pan' | FenceShape['type'], string>);

/** Targets picked in the tree (`device:<id>` or a unit id) split into device and unit ids. */
export function splitTargets(values: string[]): { device_ids: number[]; unit_ids: number[] } {
  const device_ids: number[] = [];
  const unit_ids: number[] = [];
  for (const v of values)
    (v.startsWith(DEVICE_PREFIX) ? device_ids : unit_ids).push(Number(v.replace(DEVICE_PREFIX, '')));
  return { device_ids, unit_ids };
}

/** Electronic fences (/configcenter/MapConfig/ElectronicFence) and zones (ZoneAdmin): draw, edit, delete. */
export function GeoAdminPage({ kind }: { kind: GeoKind }) {
  const { t } = useTranslation('map');
  const api = API[kind];
  const { message } = App.useApp();
  const canAdd = usePermission(api.menu, 'add');
  const canEdit = usePermission(api.menu, 'edit');
  const list = useQuery({
    queryKey: ['mapconfig', kind],
    queryFn: ({ signal }) => call(api.list, {}, { signal }),
  });
  const { dialog, create, edit, reload } = useCrud<Row>({ menu: api.menu, invalidate: [['mapconfig', kind]] });
  // the shape the dialog saves: the row's own, or one just drawn (a new fence, or a row redrawn)
  const [shape, setShape] = useState<FenceShape | null>(null);
  const [tool, setTool] = useState<DrawShape | null>(null);
  const [redraw, setRedraw] = useState<Row | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const mapRef = useRef<MapHandle | null>(null);
  const rows = useMemo(() => list.data ?? [], [list.data]);
  const shapes = useMemo(
    () =>
      rows.map((r) => ({
        id: r.id,
        shape: r.shape,
        selected: r.id === selected,
        muted: 'enabled' in r && r.enabled !== 1,
      })),
    [rows, selected],
  );

  // the page opens on what it lists: the view fitted once to every shape (none: the map's centre)
  const [mapReady, setMapReady] = useState(false);
  const fitted = useRef(false);
  useEffect(() => {
    const current = mapRef.current;
    if (!mapReady || !current || fitted.current || !list.data) return;
    fitted.current = true;
    if (!list.data.length) return;
    const bounds = list.data.map((r) => shapeBounds(r.shape));
    const w = Math.min(...bounds.map((b) => b[0]));
    const s = Math.min(...bounds.map((b) => b[1]));
    const e = Math.max(...bounds.map((b) => b[2]));
    const n = Math.max(...bounds.map((b) => b[3]));
    current.map.fitBounds([toDisplay(w, s, current.crs), toDisplay(e, n, current.crs)], {
      padding: 60,
      maxZoom: 15,
      duration: 0,
    });
  }, [mapReady, list.data]);

  const locate = (row: Row) => {
    setSelected(row.id);
    const current = mapRef.current;
    if (!current) return;
    const [w, s, e, n] = shapeBounds(row.shape);
    current.map.fitBounds([toDisplay(w, s, current.crs), toDisplay(e, n, current.crs)], { padding: 60, maxZoom: 17 });
  };

  // the panel is narrow: the rule sits under the name, the operations are compact links
  const columns = [
    {
      title: t('geo.name'),
      key: 'name',
      ellipsis: true,
      render: (_v: unknown, row: Row) => (
        <div className="bwc-geo-name">
          <span title={row.name}>{row.name}</span>
          {kind === 'fence' && (
            <Tag color={(row as Fence).enabled === 1 ? 'blue' : 'default'} title={t(RULE_LABELS[(row as Fence).rule])}>
              {t(RULE_LABELS[(row as Fence).rule])}
            </Tag>
          )}
        </div>
      ),
    },
    {
      title: t('geo.operation'),
      key: 'op',
      width: 150,
      render: (_v: unknown, row: Row) => (
        <Space size={0} wrap onClick={(event) => event.stopPropagation()}>
          {canEdit && (
            <Button
              className="bwc-geo-op"
              size="small"
              type="link"
              onClick={() => {
                setShape(row.shape);
                edit(row);
              }}
            >
              {t('geo.edit')}
            </Button>
          )}
          {canEdit && (
            <Tooltip title={t('geo.redrawHelp')}>
              <Button
                className="bwc-geo-op"
                size="small"
                type="link"
                onClick={() => (setRedraw(row), setTool(row.shape.type))}
              >
                {t('geo.redraw')}
              </Button>
            </Tooltip>
          )}
          {canEdit && (
            <Popconfirm
              title={t('geo.confirmDelete')}
              onConfirm={() => call(api.del, { id: row.id }, { success: true }).then(reload)}
            >
              <Button className="bwc-geo-op" size="small" type="link" danger>
                {t('geo.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <MapScreen
      testId={`geo-${kind}`}
      mapTestId="geo-map"
      layout="area"
      failedTitle={t('geo.mapFailed')}
      mapRef={mapRef}
      onMapReady={() => setMapReady(true)}
      panel={
        <>
          <div className="bwc-geo-title">{t(api.texts.title)}</div>
          {canAdd && <div className="bwc-geo-help">{t('geo.drawHelp')}</div>}
          <Table<Row>
            rowKey="id"
            size="small"
            bordered
            loading={list.isLoading}
            dataSource={rows}
            pagination={rows.length > 20 ? { pageSize: 20, size: 'small' } : false}
            onRow={(row) => ({ onClick: () => locate(row), style: { cursor: 'pointer' } })}
            rowClassName={(row) => (row.id === selected ? 'bwc-geo-selected' : '')}
            columns={columns}
          />
        </>
      }
      layers={
        <>
          <ShapesLayer shapes={shapes} color={kind === 'fence' ? '#f5222d' : '#1677ff'} />
          <DrawControl
            mode={tool}
            onFinish={(ring, drawn) => {
              setTool(null);
              setShape(ringToShape(ring, drawn, mapRef.current?.crs ?? 'WGS84'));
              if (redraw) edit(redraw);
              else create();
              setRedraw(null);
            }}
          />
        </>
      }
      overlay={
        canAdd && (
          <div className="bwc-map-toolbar" role="toolbar" aria-label={t('geo.tools')}>
            {(
              [
                ['pan', <DragOutlined key="pan" />],
                ['polygon', <GatewayOutlined key="polygon" />],
                ['circle', <span key="circle" className="bwc-tool-circle" aria-hidden />],
                ['rectangle', <BorderOutlined key="rectangle" />],
              ] as const
            ).map(([key, icon]) => (
              <Tooltip key={key} title={t(TOOL_LABELS[key])} placement="bottom">
                <Button
                  aria-label={t(TOOL_LABELS[key])}
                  data-testid={`geo-tool-${key}`}
                  type={(tool ?? 'pan') === key ? 'primary' : 'default'}
                  icon={icon}
                  onClick={() => {
                    setRedraw(null);
                    setTool(key === 'pan' ? null : key);
                  }}
                />
              </Tooltip>
            ))}
          </div>
        )
      }
    >
      <GeoFormDialog
        kind={kind}
        shape={shape}
        {...dialog}
        onSaved={() => {
          dialog.onSaved();
          message.destroy();
        }}
      />
    </MapScreen>
  );
}

/** The drawn shape (the form's `shape`): its kind, a circle's radius. */
function ShapeSummary({ value }: { value?: FenceShape | null }) {
  const { t } = useTranslation('map');
  return (
    <>
      <Tag>{value ? t(TOOL_LABELS[value.type]) : ''}</Tag>
      {value?.type === 'circle' && t('geo.radius', { m: value.radius })}
    </>
  );
}

interface GeoFormDialogProps extends FormDialogTargetProps<Row> {
  kind: GeoKind;
  shape: FenceShape | null;
}

/** Add or edit a fence or a zone (the shape drawn on the map, checked with the rest). */
export function GeoFormDialog({ kind, shape, ...props }: GeoFormDialogProps) {
  const { t } = useTranslation('map');
  const api = API[kind];
  const dialog = useFormDialog({
    ...props,
    schema: api.schema,
    initial: (row) => {
      // the owner and the targets may lie deeper than the pickers have loaded: give them their names
      if (row) rememberUnitTreeLabels([[String(row.unit_id), row.unitname]]);
      if (row && 'targets' in row)
        rememberUnitTreeLabels(
          row.targets.map((x) => [x.type === 'device' ? `${DEVICE_PREFIX}${x.id}` : String(x.id), x.name]),
        );
      const base = {
        name: row?.name ?? '',
        unit_id: row ? String(row.unit_id) : undefined,
        remark: row?.remark ?? '',
        shape,
      };
      if (kind === 'zone') return base;
      const fence = row as Fence | null;
      const targets = [
        ...(fence?.device_ids ?? []).map((id) => `${DEVICE_PREFIX}${id}`),
        ...(fence?.unit_ids ?? []).map(String),
      ];
      return {
        ...base,
        rule: fence?.rule ?? 'both',
        time_start: fence?.time_start ?? '',
        time_end: fence?.time_end ?? '',
        enabled: fence ? fence.enabled : 1,
        targets,
        ...splitTargets(targets),
      };
    },
    create: (values) => call(api.add, values, { success: true }),
    update: (values, row) => call(api.update, { id: row.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name={`${kind}-form`}
      title={t(dialog.creating ? api.texts.add : api.texts.edit)}
      okText={t('geo.save')}
      width={560}
      formProps={{
        // the tree's picks (`device:<id>` or a unit id) are sent as device and unit ids
        onValuesChange: (changed: { targets?: string[] }) => {
          if ('targets' in changed) dialog.form.setFieldsValue(splitTargets(changed.targets ?? []));
        },
      }}
    >
      {/* a field of the form, so that a drawing the schema refuses (edges that cross) says so here */}
      <Form.Item name="shape" label={t('geo.shape')} rules={dialog.rules('shape')}>
        <ShapeSummary />
      </Form.Item>
      <Form.Item name="name" label={t('geo.name')} rules={dialog.rules('name')} required>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="unit_id" label={t('geo.unit')} rules={dialog.rules('unit_id')} extra={t('geo.unitHelp')}>
        <UnitTreeSelect loader={loadUnitLevel} selectableNode={isUnitNode} width={500} />
      </Form.Item>
      {kind === 'fence' && (
        <>
          <Form.Item name="rule" label={t('geo.rule')} rules={dialog.rules('rule')} required>
            <Select options={FENCE_RULES.map((r) => ({ value: r, label: t(RULE_LABELS[r]) }))} />
          </Form.Item>
          <Space align="start">
            <Form.Item
              name="time_start"
              label={t('geo.timeStart')}
              rules={dialog.rules('time_start')}
              dependencies={['time_end']}
            >
              <Input placeholder="HH:mm" maxLength={5} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item
              name="time_end"
              label={t('geo.timeEnd')}
              rules={dialog.rules('time_end')}
              dependencies={['time_start']}
              extra={t('geo.windowHelp')}
            >
              <Input placeholder="HH:mm" maxLength={5} style={{ width: 120 }} />
            </Form.Item>
          </Space>
          <Form.Item name="targets" label={t('geo.targets')} extra={t('geo.targetsHelp')}>
            <UnitTreeSelect loader={loadDeviceLevel} multiple width={500} />
          </Form.Item>
          <Form.Item name="enabled" label={t('geo.enabled')} {...flagSwitchProps}>
            <Switch />
          </Form.Item>
        </>
      )}
      <Form.Item name="remark" label={t('geo.remark')} rules={dialog.rules('remark')}>
        <Input.TextArea maxLength={255} rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
