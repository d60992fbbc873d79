export { GroupMemberPicker, type GroupMemberPickerProps } from './GroupMemberPicker';
