import type { Depot, Tour, TourDetail, TourStop, Truck } from '@tankportal/shared/schemas/tours';
import type { DepotRecord, StopRow, Tank, TourRow, TruckRecord } from '../repositories/tours.ts';

export function presentDepot(depot: DepotRecord): Depot {
  return {
    id: depot.id,
    ownerUserId: depot.ownerUserId,
    name: depot.name,
    street: depot.street,
    postalCode: depot.postalCode,
    city: depot.city,
    lat: depot.locationLat,
    lng: depot.locationLng,
    createdAt: depot.createdAt,
  };
}

export function presentTruck(truck: TruckRecord): Truck {
  return {
    id: truck.id,
    ownerUserId: truck.ownerUserId,
    depotId: truck.depotId,
    name: truck.name,
    plate: truck.plate,
    compartments: truck.compartments.map(({ contentType, capacity }) => ({ contentType, capacity })),
    capacity: truck.compartments.reduce((sum, compartment) => sum + compartment.capacity, 0),
    createdAt: truck.createdAt,
  };
}

export function presentTankAddress(tank: Pick<Tank, 'street' | 'streetNumber' | 'postalCode' | 'city'>) {
  return {
    street: tank.street,
    streetNumber: tank.streetNumber,
    postalCode: tank.postalCode,
    city: tank.city,
  };
}

export function presentStop({ stop, tank }: StopRow): TourStop {
  return {
    id: stop.id,
    position: stop.position,
    orderId: stop.orderId,
    deviceId: stop.deviceId,
    deviceName: tank.deviceName,
    sensorId: stop.sensorId,
    contentType: tank.contentType,
    unit: tank.unit,
    address: presentTankAddress(tank),
    lat: tank.lat,
    lng: tank.lng,
    quantity: stop.quantity,
    delivered: stop.deliveredAt !== null,
    deliveredAt: stop.deliveredAt,
    ticketQuantity: stop.ticketQuantity,
  };
}

export function presentTour(row: TourRow, stops: StopRow[]): Tour {
  return {
    id: row.tour.id,
    day: row.tour.day,
    state: row.tour.state,
    depot: row.depot,
    truck: row.truck,
    driver: row.driver,
    distanceKm: row.tour.distanceKm,
    stopCount: stops.length,
    deliveredCount: stops.filter(({ stop }) => stop.deliveredAt !== null).length,
    quantity: stops.reduce((sum, { stop }) => sum + stop.quantity, 0),
    createdAt: row.tour.createdAt,
  };
}

export function presentTourDetail(row: TourRow, stops: StopRow[]): TourDetail {
  return { ...presentTour(row, stops), stops: stops.map(presentStop) };
}
