import { TeamOutlined } from '@ant-design/icons';
import {
  GROUP_NAME_MAX,
  GROUP_TEMP_TTL_H,
  GroupAddRequest,
  GroupEditRequest,
  type GroupMember,
  type TalkGroup,
  type TreeNode,
} from '@bwc/protocol';
import { Button, Form, Input, Radio, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { useUserInfo } from '../../../app/session/queries';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';
import { GroupMemberPicker } from '../../../components/group-member-picker';
import {
  UnitTreeSelect,
  isUnitNode,
  loadDeviceLevel,
  loadUnitLevel,
  rememberUnitTreeLabels,
  unitNodeKey,
  unitNodeLabel,
} from '../../../components/unit-tree';
import { isHiddenMember, visibleMembers } from './groupRules';

/** Members take part in trunked talk only with a cluster number: the others cannot be picked. */
const withoutClusterNumber = (node: TreeNode): boolean => !node.jq_hostcode;

/** The unit picker's value: the unit code, as the requests name the unit. */
const unitCode = (node: TreeNode): string => node.bh ?? '';

/** A stored member as the picker shows it (a terminal of the unit tree: same key, so it shows ticked). */
export function memberNode(member: GroupMember): TreeNode {
  return {
    id: member.uid,
    unitname: member.display_name,
    hostname: member.display_name,
    display_name: member.display_name,
    did: member.hostbody,
    sub: 0,
    last: 1,
    treecate: 'device',
    lineon: member.lineon,
    jq_hostcode: member.jq_hostcode,
  };
}

/**
 * The members field: the chosen terminals (form value `members`) and the request's `device`
 * list, which names them by cluster number when creating and by device id when editing (spec
 * part 2 section 7.1).
 */
function MembersInput({ creating, onChange }: { creating: boolean; onChange?: (device: (string | number)[]) => void }) {
  const { t } = useTranslation('dispatch');
  const form = Form.useFormInstance();
  const members = (Form.useWatch('members', { form, preserve: true }) as TreeNode[] | undefined) ?? [];
  const [picking, setPicking] = useState(false);
  return (
    <div className="bwc-voice-members" data-testid="group-form-members">
      {members.length === 0 ? (
        <Typography.Text type="secondary">{t('voiceManage.form.noMembers')}</Typography.Text>
      ) : (
        <div className="bwc-voice-member-tags">
          {members.map((node) => (
            <Tag key={unitNodeKey(node)}>{unitNodeLabel(node)}</Tag>
          ))}
        </div>
      )}
      <Button icon={<TeamOutlined />} onClick={() => setPicking(true)} data-testid="group-form-pick">
        {t('voiceManage.form.pickMembers', { count: members.length })}
      </Button>
      <GroupMemberPicker
        open={picking}
        title={t('voiceManage.form.pickTitle')}
        loader={loadDeviceLevel}
        initialMembers={members}
        disabledNode={withoutClusterNumber}
        offlinePickable
        okText={t('voiceManage.form.pickDone')}
        onSend={(nodes) => {
          form.setFieldValue('members', nodes);
          onChange?.(nodes.map((node) => (creating ? (node.jq_hostcode ?? '') : Number(node.id))));
          setPicking(false);
        }}
        onCancel={() => setPicking(false)}
      />
    </div>
  );
}

interface Props extends FormDialogTargetProps<TalkGroup> {
  /** unit names by code, to show the group's unit before the unit tree has loaded it */
  unitNames: ReadonlyMap<string, string>;
}

/**
 * Create or edit a group (spec part 2 section 7.1): name, fixed or temporary (`cate`), owning
 * unit (`bh`), members picked in the group-member picker, remark. A temporary group without a
 * name gets the temporary name from the server and lives GROUP_TEMP_TTL_H hours.
 */
export function GroupFormDialog({ unitNames, ...props }: Props) {
  const { t } = useTranslation('dispatch');
  const user = useUserInfo();
  const dialog = useFormDialog({
    ...props,
    schema: GroupAddRequest,
    updateSchema: GroupEditRequest,
    initial: (group) => {
      if (!group) {
        // the user's own unit to start with
        if (user.data) rememberUnitTreeLabels([[user.data.dwbh, user.data.dname]]);
        return { channel_name: '', cate: '0', remark: '', bh: user.data?.dwbh ?? '', device: [], members: [] };
      }
      const name = unitNames.get(group.bh);
      if (name) rememberUnitTreeLabels([[group.bh, name]]);
      const members = visibleMembers(group);
      return {
        channel_id: group.tgid,
        channel_name: group.tg_name,
        cate: group.preconfig === 1 ? '1' : '0',
        remark: group.remark,
        bh: group.bh,
        device: members.map((m) => m.uid),
        members: members.map(memberNode),
      };
    },
    create: (values) => call('groupAdd', values, { success: true }),
    // members the dispatcher does not see stay in the group
    update: (values, group) =>
      call(
        'groupEdit',
        {
          ...values,
          channel_id: group.tgid,
          device: [...values.device, ...group.children.filter(isHiddenMember).map((m) => m.uid)],
        },
        { success: true },
      ),
  });
  const cate = Form.useWatch('cate', dialog.form) as string | undefined;
  const temporary = cate === '0';

  return (
    <FormDialog
      dialog={dialog}
      name="group-form"
      title={t(dialog.creating ? 'voiceManage.form.addTitle' : 'voiceManage.form.editTitle')}
      okText={t('voiceManage.form.save')}
      width={600}
    >
      <Form.Item name="cate" label={t('voiceManage.field.cate')} required>
        <Radio.Group
          optionType="button"
          options={[
            { value: '1', label: t('groupTab.fixed') },
            { value: '0', label: t('groupTab.temporary') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="channel_name"
        label={t('voiceManage.field.name')}
        rules={dialog.rules('channel_name')}
        dependencies={['cate']}
        required={!temporary || !dialog.creating}
        extra={
          temporary
            ? t(dialog.creating ? 'voiceManage.form.temporaryNamed' : 'voiceManage.form.temporaryLife', {
                hours: GROUP_TEMP_TTL_H,
              })
            : undefined
        }
      >
        <Input maxLength={GROUP_NAME_MAX} placeholder={t('voiceManage.form.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="bh" label={t('voiceManage.field.unit')} rules={dialog.rules('bh')} required>
        <UnitTreeSelect loader={loadUnitLevel} selectableNode={isUnitNode} nodeValue={unitCode} width={552} />
      </Form.Item>
      <Form.Item name="device" label={t('voiceManage.field.members')} rules={dialog.rules('device')} required>
        <MembersInput creating={dialog.creating} />
      </Form.Item>
      <Form.Item name="remark" label={t('voiceManage.field.remark')} rules={dialog.rules('remark')}>
        <Input.TextArea maxLength={255} rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
