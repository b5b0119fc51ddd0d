import IPSDoctorCore

print("ips-doctor")
