import type { CustomFilterItem } from '../search-bar';
import { isUnitNode, loadUnitLevel } from './loaders';
import { UnitTreeSelect } from './UnitTree';

/** A search bar's unit filter: the unit picker, units only, loaded level by level. */
export function unitSearchItem(label: string, name = 'unit_id'): CustomFilterItem {
  return {
    type: 'custom',
    name,
    label,
    render: ({ value, onChange }) => (
      <UnitTreeSelect
        loader={loadUnitLevel}
        value={value}
        onChange={(next) => onChange(next)}
        selectableNode={isUnitNode}
      />
    ),
  };
}
