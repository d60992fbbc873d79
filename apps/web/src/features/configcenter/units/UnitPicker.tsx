import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { UnitRow } from './unitTree';

/** Value of the "no parent" choice: a root unit (administrators only). */
export const ROOT_UNIT = 0;

interface UnitPickerProps {
  units: readonly UnitRow[];
  value?: number;
  onChange?: (value: number | undefined) => void;
  /** offer "no parent (root unit)" as value 0 */
  withRoot?: boolean;
  /** units that cannot be picked (e.g. the unit being moved) */
  disabledIds?: ReadonlySet<number>;
  loading?: boolean;
  placeholder?: string;
  id?: string;
}

interface Option {
  value: number;
  title: string;
  disabled?: boolean;
  children?: Option[];
}

/**
 * Unit picker of the configuration forms: every unit of the caller's scope (already loaded by
 * `unit/get`), so that a saved value always shows its name. Filters by name or code as one types.
 */
export function UnitPicker({
  units,
  value,
  onChange,
  withRoot,
  disabledIds,
  loading,
  placeholder,
  id,
}: UnitPickerProps) {
  const { t } = useTranslation('configcenter');
  const treeData = useMemo(() => {
    const shape = (rows: readonly UnitRow[]): Option[] =>
      rows.map((row) => ({
        value: row.id,
        title: `${row.name} (${row.bh})`,
        disabled: disabledIds?.has(row.id),
        children: row.subunits ? shape(row.subunits) : undefined,
      }));
    const options = shape(units);
    return withRoot ? [{ value: ROOT_UNIT, title: t('units.rootOption') }, ...options] : options;
  }, [units, withRoot, disabledIds, t]);
  return (
    <TreeSelect<number>
      id={id}
      showSearch
      allowClear
      treeDefaultExpandAll
      loading={loading}
      placeholder={placeholder ?? t('units.pickUnit')}
      treeNodeFilterProp="title"
      treeData={treeData}
      value={value}
      onChange={(next) => onChange?.(next ?? undefined)}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
    />
  );
}
