import { CloseOutlined } from '@ant-design/icons';
import { GROUP_DIALOG_WIDTH, type TreeNode } from '@bwc/protocol';
import { Button, Empty, Form, Input, Modal } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UnitNodeTitle, UnitTree, isOnlineTerminal, isTerminal, unitNodeKey, type UnitTreeLoader } from '../unit-tree';
import './group-member-picker.css';

export interface GroupMemberPickerProps {
  open: boolean;
  title: ReactNode;
  loader: UnitTreeLoader;
  /** Show the group-name field; it is then required. */
  withGroupName?: boolean;
  initialGroupName?: string;
  initialMembers?: TreeNode[];
  /** A returned promise keeps the send button busy until it settles; closing is up to the caller. */
  onSend: (members: TreeNode[], groupName: string | undefined) => Promise<unknown> | void;
  onCancel: () => void;
  /** Tree height in px. */
  treeHeight?: number;
  /** Terminals that cannot be picked besides the offline ones (e.g. without a cluster number). */
  disabledNode?: (node: TreeNode) => boolean;
  /** Label of the confirm button (default: send). */
  okText?: ReactNode;
  /** Offline terminals may be picked too (a stored talk group keeps officers who are off duty now). */
  offlinePickable?: boolean;
}

const TREE_HEIGHT = 360;

function onlineCount(nodes: readonly TreeNode[]): number {
  return nodes.filter(isOnlineTerminal).length;
}

/**
 * Group-member picker dialog (spec part 1 section 2): optional group name, unit tree on the left
 * (search, online count; offline terminals cannot be picked), chosen members on the right.
 */
export function GroupMemberPicker(props: GroupMemberPickerProps) {
  const { open, title, loader, withGroupName = false, initialGroupName, initialMembers, onSend, onCancel, treeHeight = TREE_HEIGHT, disabledNode, offlinePickable = false, okText } = props;
  const { t } = useTranslation('components');
  const [members, setMembers] = useState<TreeNode[]>([]);
  const [groupName, setGroupName] = useState('');
  const [nameError, setNameError] = useState(false);
  const [sending, setSending] = useState(false);

  // Every opening starts from the caller's initial state.
  useEffect(() => {
    if (!open) return;
    setMembers(initialMembers ?? []);
    setGroupName(initialGroupName ?? '');
    setNameError(false);
  }, [open, initialMembers, initialGroupName]);

  const handleCheck = (nodes: TreeNode[], keys: string[]) => {
    const known = new Map([...members, ...nodes].map((node) => [unitNodeKey(node), node]));
    setMembers(keys.map((key) => known.get(key)).filter((node): node is TreeNode => node !== undefined && isTerminal(node)));
  };

  const send = async () => {
    const name = groupName.trim();
    if (withGroupName && !name) {
      setNameError(true);
      return;
    }
    const result = onSend(members, withGroupName ? name : undefined);
    if (!(result instanceof Promise)) return;
    setSending(true);
    try {
      await result;
    } catch {
      // the http layer has told the user; the dialog keeps its state for another try
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={GROUP_DIALOG_WIDTH}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('groupPicker.cancel')}
        </Button>,
        <Button key="send" type="primary" loading={sending} disabled={members.length === 0} onClick={() => void send()}>
          {okText ?? t('groupPicker.send')}
        </Button>,
      ]}
    >
      {withGroupName && (
        <Form layout="vertical" component="div">
          <Form.Item label={t('groupPicker.groupName')} required validateStatus={nameError ? 'error' : undefined} help={nameError ? t('groupPicker.groupNameRequired') : undefined}>
            <Input
              value={groupName}
              placeholder={t('groupPicker.groupNamePlaceholder')}
              onChange={(event) => {
                setGroupName(event.target.value);
                if (event.target.value.trim()) setNameError(false);
              }}
            />
          </Form.Item>
        </Form>
      )}
      <div className="bwc-group-picker">
        <section className="bwc-group-picker-panel" aria-label={t('groupPicker.candidates')}>
          <UnitTree
            loader={loader}
            checkable
            checkableNode={isTerminal}
            disabledNode={(node) => isTerminal(node) && ((!offlinePickable && !isOnlineTerminal(node)) || (disabledNode?.(node) ?? false))}
            checkedKeys={members.map(unitNodeKey)}
            onCheck={handleCheck}
            height={treeHeight}
            header={(loaded) => {
              const terminals = loaded.filter(isTerminal);
              return <div className="bwc-group-picker-count">{t('groupPicker.treeCount', { online: onlineCount(terminals), total: terminals.length })}</div>;
            }}
          />
        </section>
        <section className="bwc-group-picker-panel" aria-label={t('groupPicker.chosen')}>
          <div className="bwc-group-picker-heading">
            <span>{t('groupPicker.chosen')}</span>
            <span className="bwc-group-picker-count">{t('groupPicker.chosenCount', { count: members.length, online: onlineCount(members) })}</span>
          </div>
          {members.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('groupPicker.noneChosen')} />
          ) : (
            <ul className="bwc-group-picker-list" style={{ maxHeight: treeHeight }}>
              {members.map((node) => (
                <li key={unitNodeKey(node)}>
                  <UnitNodeTitle node={node} />
                  <Button
                    type="text"
                    size="small"
                    icon={<CloseOutlined />}
                    aria-label={t('groupPicker.remove')}
                    onClick={() => setMembers((current) => current.filter((member) => unitNodeKey(member) !== unitNodeKey(node)))}
                  />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </Modal>
  );
}
