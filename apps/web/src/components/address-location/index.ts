export {
  AddressLocation,
  cachedAddress,
  lookupAddress,
  type AddressCacheItem,
  type AddressLocationProps,
  type AddressResolver,
} from './AddressLocation';
