// Catalogue icons are @ant-design/icons names in the declarations; only these are bundled.
import {
  AlignLeftOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DownSquareOutlined,
  EditOutlined,
  FieldTimeOutlined,
  NumberOutlined,
  SendOutlined,
  SwapOutlined,
  AppstoreOutlined, BarChartOutlined, BorderOuterOutlined, FolderOutlined, FontSizeOutlined, PictureOutlined, PieChartOutlined, TableOutlined } from '@ant-design/icons';
import type { ComponentType } from 'react';

const ICONS: Record<string, ComponentType> = {
  AlignLeftOutlined,
  CalendarOutlined,
  CheckCircleOutlined,
  CheckSquareOutlined,
  DownSquareOutlined,
  EditOutlined,
  FieldTimeOutlined,
  NumberOutlined,
  SendOutlined,
  SwapOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  BorderOuterOutlined,
  FolderOutlined,
  FontSizeOutlined,
  PictureOutlined,
  PieChartOutlined,
  TableOutlined,
};

export function WidgetIcon({ name }: { name: string }) {
  const Icon = ICONS[name] ?? AppstoreOutlined;
  return <Icon />;
}

export function hasIcon(name: string): boolean {
  return name in ICONS;
}
