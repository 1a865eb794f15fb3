import { Tabs } from 'antd';
import { CrudPage } from '../../crud';

/** 远程服务器: the FTP and ETL lists side by side in tabs — composition only, both are declared pages. */
export default function Remote() {
  return (
    <Tabs
      className="remote-tabs"
      defaultActiveKey="ftp"
      destroyOnHidden={false}
      items={[
        { key: 'ftp', label: 'FTP服务器', children: <CrudPage pageId="ftp" /> },
        { key: 'etl', label: 'ETL服务器', children: <CrudPage pageId="etl" /> },
      ]}
    />
  );
}
