import { TITLE_FORBIDDEN_CHARS, TITLE_MAX } from '@bwc/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SettingsRules } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';

const SUPPORT_TEXT_MAX = 100;

/** /system/systemset/titleset: system title (1 to 17 characters, no forbidden character) and support text. */
export function TitleSetPage() {
  return <SettingsTypePage type="titleset">{(rules) => <TitleSetFields rules={rules} />}</SettingsTypePage>;
}

/** The fields of the form, validated with the protocol schema through `rules`. */
export function TitleSetFields({ rules }: { rules: SettingsRules }) {
  const { t } = useTranslation('system');
  return (
    <>
      <Form.Item
        name="title"
        label={t('titleset.field.title')}
        rules={rules('title')}
        required
        extra={t('titleset.help.title', { max: TITLE_MAX, chars: TITLE_FORBIDDEN_CHARS.join(' ') })}
      >
        <Input count={{ show: true, max: TITLE_MAX }} />
      </Form.Item>
      <Form.Item
        name="support_text"
        label={t('titleset.field.support_text')}
        rules={rules('support_text')}
        extra={t('titleset.help.support_text')}
      >
        <Input.TextArea rows={3} count={{ show: true, max: SUPPORT_TEXT_MAX }} />
      </Form.Item>
    </>
  );
}
