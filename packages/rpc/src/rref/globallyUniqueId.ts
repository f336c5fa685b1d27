/** PyTorch's GloballyUniqueId: (the worker that created it, a counter local to that worker). */
export interface GloballyUniqueId {
  createdOn: number;
  localId: number;
}

export const gidKey = (g: GloballyUniqueId): string => `${g.createdOn}:${g.localId}`;
export const gidString = (g: GloballyUniqueId): string =>
  `GloballyUniqueId(created_on=${g.createdOn}, local_id=${g.localId})`;

let counter = 0;

export function newGid(self: number): GloballyUniqueId {
  return { createdOn: self, localId: counter++ };
}
