profile::::tick-1sec {}
