/** Form.Item props mapping a 0/1 flag of the protocol (enabled, is_index, ifadmin) to a switch. */
export const flagSwitchProps = {
  valuePropName: 'checked',
  getValueProps: (value: unknown) => ({ checked: Number(value) === 1 }),
  normalize: (checked: boolean) => (checked ? 1 : 0),
};
